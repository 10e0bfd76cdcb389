import { GitHubError, type OperationContext } from './errors.ts';
import type { GitHubCall } from './call.ts';
import type { CommitFilesInput, CommitResult, RepoRef } from './port.ts';

/**
 * One commit carrying several files, through the git data API: blobs → tree → commit → ref.
 *
 * Idempotent by content. Git objects are content-addressed, so the tree built from the head's tree
 * plus these files has the same sha every time. If that tree is already the head's tree, the work
 * is done (a previous attempt got as far as moving the ref) and nothing is committed. If a previous
 * attempt died between creating the commit and moving the ref, its commit is unreachable and
 * harmless; this attempt makes a fresh one. Either way the branch gains at most one commit.
 */
export async function commitFiles(
  ref: RepoRef,
  call: GitHubCall,
  getBranchHead: (branch: string) => Promise<string | null>,
  input: CommitFilesInput,
): Promise<CommitResult> {
  const { owner, repo } = ref;
  const repository = `${owner}/${repo}`;
  const ctx = (operation: string): OperationContext => ({
    operation: `${operation} in ${repository}`,
    repository,
    permission: 'contents:write',
  });
  const refused = (code: 'branch_missing' | 'conflict', reason: string) =>
    new GitHubError({
      code,
      status: code === 'conflict' ? 409 : 404,
      retryable: false,
      operation: `commit to ${input.branch} in ${repository}`,
      reason,
    });

  const headSha = await getBranchHead(input.branch);
  if (headSha === null)
    throw refused(
      'branch_missing',
      `branch "${input.branch}" does not exist in ${repository}; create it first.`,
    );
  const head = await call({ ...ctx(`read commit ${headSha}`), permission: 'contents:read' }, (o) =>
    o.rest.git.getCommit({ owner, repo, commit_sha: headSha }),
  );

  const tree: { path: string; mode: '100644'; type: 'blob'; sha: string }[] = [];
  for (const file of input.files) {
    const content = Buffer.isBuffer(file.content)
      ? file.content
      : Buffer.from(file.content, 'utf8');
    const blob = await call(ctx(`upload ${file.path}`), (o) =>
      o.rest.git.createBlob({
        owner,
        repo,
        content: content.toString('base64'),
        encoding: 'base64',
      }),
    );
    tree.push({ path: file.path, mode: '100644', type: 'blob', sha: blob.data.sha });
  }
  const newTree = await call(ctx('build the tree'), (o) =>
    o.rest.git.createTree({ owner, repo, base_tree: head.data.tree.sha, tree }),
  );

  if (newTree.data.sha === head.data.tree.sha) return { sha: headSha, created: false };
  if (input.expectedHeadSha && input.expectedHeadSha !== headSha) {
    throw refused(
      'conflict',
      `branch "${input.branch}" moved from ${input.expectedHeadSha} to ${headSha} since it was read; read it again before committing.`,
    );
  }

  const commit = await call(ctx('create the commit'), (o) =>
    o.rest.git.createCommit({
      owner,
      repo,
      message: input.message,
      tree: newTree.data.sha,
      parents: [headSha],
    }),
  );
  // Not forced: if someone pushed since we read the head, GitHub refuses and nothing is lost.
  await call(ctx(`move ${input.branch} to the new commit`), (o) =>
    o.rest.git.updateRef({
      owner,
      repo,
      ref: `heads/${input.branch}`,
      sha: commit.data.sha,
      force: false,
    }),
  );
  return { sha: commit.data.sha, created: true };
}
