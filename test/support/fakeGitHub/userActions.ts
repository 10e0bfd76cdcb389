import { type GitCommit, SUBMODULE, SYMLINK } from './gitStore.ts';
import type { PullRequestRecord, RepoRecord } from './state.ts';

/** What people do on github.com, outside the API the adapter uses: push, merge, close. */

/** A tree entry that is not a plain file: a symbolic link to `symlink`, or a submodule at commit `submodule`. */
export type SpecialEntry = { symlink: string } | { submodule: string };
export type PushedFile = string | Buffer | SpecialEntry;

function treeChange(repo: RepoRecord, path: string, content: PushedFile) {
  if (typeof content === 'string' || Buffer.isBuffer(content))
    return {
      path,
      mode: '100644',
      sha: repo.git.putBlob(Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8')),
    };
  if ('symlink' in content)
    return { path, mode: SYMLINK, sha: repo.git.putBlob(Buffer.from(content.symlink, 'utf8')) };
  return { path, mode: SUBMODULE, sha: content.submodule };
}

const person = (login: string, date: string) => ({
  name: login,
  email: `${login}@users.noreply.github.com`,
  date,
});

/** A push of `files` (path → content) on top of `branch`, creating it from the default branch if needed. */
export function pushCommit(
  repo: RepoRecord,
  branch: string,
  input: { message: string; files: Record<string, PushedFile>; author: string },
  now: string,
): GitCommit {
  const parent = repo.branches.get(branch) ?? repo.branches.get(repo.defaultBranch);
  const parentCommit = parent ? repo.git.commits.get(parent) : undefined;
  const changes = Object.entries(input.files).map(([path, content]) =>
    treeChange(repo, path, content),
  );
  const treeSha = repo.git.buildTree(parentCommit?.treeSha, changes);
  const commit = repo.git.putCommit({
    treeSha,
    message: input.message,
    parents: parent ? [parent] : [],
    author: person(input.author, now),
    committer: person(input.author, now),
  });
  repo.branches.set(branch, commit.sha);
  return commit;
}

function mergeBase(repo: RepoRecord, headSha: string, baseSha: string): string | undefined {
  return repo.git.history(headSha).find((c) => repo.git.isAncestor(c.sha, baseSha))?.sha;
}

/** Merges like the green button: a merge commit on the base carrying the head's changes. */
export function mergePullRequest(
  repo: RepoRecord,
  pull: PullRequestRecord,
  by: string,
  now: string,
): GitCommit {
  if (pull.state !== 'open') throw new Error(`pull request #${pull.number} is ${pull.state}`);
  const headSha = repo.branches.get(pull.head)!;
  const baseSha = repo.branches.get(pull.base)!;
  const { git } = repo;
  const treeOf = (sha: string | undefined) =>
    sha ? git.trees.get(git.commits.get(sha)!.treeSha)! : new Map();
  const since = treeOf(mergeBase(repo, headSha, baseSha));
  const head = treeOf(headSha);
  const changes = [
    ...[...head]
      .filter(([path, entry]) => since.get(path)?.sha !== entry.sha)
      .map(([path, entry]) => ({ path, mode: entry.mode, sha: entry.sha })),
    ...[...since.keys()]
      .filter((path) => !head.has(path))
      .map((path) => ({ path, mode: '100644', sha: null })),
  ];
  const treeSha = git.buildTree(git.commits.get(baseSha)!.treeSha, changes);
  const commit = git.putCommit({
    treeSha,
    message: `Merge pull request #${pull.number} from ${repo.owner}/${pull.head}\n\n${pull.title}`,
    parents: [baseSha, headSha],
    author: person(by, now),
    committer: person('GitHub', now),
  });
  repo.branches.set(pull.base, commit.sha);
  Object.assign(pull, {
    state: 'closed',
    merged: true,
    mergedAt: now,
    mergedBy: by,
    mergeCommitSha: commit.sha,
    closedAt: now,
    updatedAt: now,
    closedHeadSha: headSha,
  });
  return commit;
}

export function closePullRequest(repo: RepoRecord, pull: PullRequestRecord, now: string): void {
  if (pull.state !== 'open') throw new Error(`pull request #${pull.number} is already closed`);
  Object.assign(pull, {
    state: 'closed',
    closedAt: now,
    updatedAt: now,
    closedHeadSha: repo.branches.get(pull.head) ?? null,
  });
}
