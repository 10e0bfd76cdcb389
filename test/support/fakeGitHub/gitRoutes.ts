import type { TreeChange } from './gitStore.ts';
import { branchWithProtection, contentFile, fullRepository, gitCommit, gitRef } from './objects.ts';
import {
  HttpFailure,
  notFound,
  repoPath,
  requireString,
  validationFailed,
  type Route,
  type RouteContext,
} from './route.ts';
import { allows, fullName } from './state.ts';

/** Repository, branch, git data and contents endpoints of the fake GitHub. */

const branchOfRef = (ref: string) => (ref.startsWith('heads/') ? ref.slice('heads/'.length) : null);

function headOf(ctx: RouteContext, ref: string): string {
  const branch = branchOfRef(ref);
  if (branch === null || !ctx.repo.branches.has(branch)) throw notFound();
  return branch;
}

function signature(ctx: RouteContext, given: unknown) {
  const person = (given ?? {}) as { name?: string; email?: string; date?: string };
  const login = ctx.actor?.login ?? 'ghost';
  return {
    name: person.name ?? login,
    email: person.email ?? `${login}@users.noreply.github.com`,
    date: person.date ?? ctx.nowIso(),
  };
}

export const gitRoutes: Route[] = [
  {
    operationId: 'repos/get',
    method: 'GET',
    pattern: repoPath(''),
    permission: [['metadata', 'read']],
    handle: (ctx) => {
      const grant = ctx.actor!.grants.get(fullName(ctx.repo));
      // GitHub reports the caller's role only to users; installation tokens get no `permissions`.
      const role =
        ctx.actor!.kind === 'user'
          ? { push: allows(grant, 'contents', 'write'), admin: false }
          : undefined;
      return { status: 200, body: fullRepository(ctx.repo, ctx.urls, role) };
    },
  },
  {
    operationId: 'repos/get-branch',
    method: 'GET',
    pattern: repoPath('/branches/(?<branch>.+)'),
    permission: [['contents', 'read']],
    handle: (ctx) => {
      if (!ctx.repo.branches.has(ctx.params.branch)) throw new HttpFailure(404, 'Branch not found');
      return { status: 200, body: branchWithProtection(ctx.repo, ctx.params.branch, ctx.urls) };
    },
  },
  {
    operationId: 'git/get-ref',
    method: 'GET',
    pattern: repoPath('/git/ref/(?<ref>.+)'),
    permission: [['contents', 'read']],
    handle: (ctx) => ({
      status: 200,
      body: gitRef(ctx.repo, headOf(ctx, ctx.params.ref), ctx.urls),
    }),
  },
  {
    operationId: 'git/create-ref',
    method: 'POST',
    pattern: repoPath('/git/refs'),
    permission: [['contents', 'write']],
    handle: (ctx) => {
      const ref = requireString(ctx.body, 'ref');
      const sha = requireString(ctx.body, 'sha');
      const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
      if (branch === null)
        throw new HttpFailure(422, 'Reference name must start with refs/heads/ in this fake');
      if (ctx.repo.branches.has(branch)) throw new HttpFailure(422, 'Reference already exists');
      if (!ctx.repo.git.commits.has(sha)) throw new HttpFailure(422, 'Object does not exist');
      ctx.repo.branches.set(branch, sha);
      return { status: 201, body: gitRef(ctx.repo, branch, ctx.urls) };
    },
  },
  {
    operationId: 'git/update-ref',
    method: 'PATCH',
    pattern: repoPath('/git/refs/(?<ref>.+)'),
    permission: [['contents', 'write']],
    handle: (ctx) => {
      const branch = headOf(ctx, ctx.params.ref);
      const sha = requireString(ctx.body, 'sha');
      if (!ctx.repo.git.commits.has(sha)) throw new HttpFailure(422, 'Object does not exist');
      const current = ctx.repo.branches.get(branch)!;
      if (ctx.body.force !== true && !ctx.repo.git.isAncestor(current, sha)) {
        throw new HttpFailure(422, 'Update is not a fast forward');
      }
      if (ctx.repo.protectedBranches.has(branch)) {
        throw new HttpFailure(422, 'Protected branch update failed for refs/heads/' + branch + '.');
      }
      ctx.repo.branches.set(branch, sha);
      return { status: 200, body: gitRef(ctx.repo, branch, ctx.urls) };
    },
  },
  {
    operationId: 'git/create-blob',
    method: 'POST',
    pattern: repoPath('/git/blobs'),
    permission: [['contents', 'write']],
    handle: (ctx) => {
      const content = typeof ctx.body.content === 'string' ? ctx.body.content : null;
      if (content === null)
        throw new HttpFailure(422, 'Invalid request.\n\n"content" wasn\'t supplied.');
      const sha = ctx.repo.git.putBlob(
        Buffer.from(content, ctx.body.encoding === 'base64' ? 'base64' : 'utf8'),
      );
      return {
        status: 201,
        body: { sha, url: `${ctx.urls.api}/repos/${fullName(ctx.repo)}/git/blobs/${sha}` },
      };
    },
  },
  {
    operationId: 'git/get-blob',
    method: 'GET',
    pattern: repoPath('/git/blobs/(?<sha>[0-9a-f]+)'),
    permission: [['contents', 'read']],
    handle: (ctx) => {
      const blob = ctx.repo.git.blobs.get(ctx.params.sha);
      if (!blob) throw notFound();
      const url = `${ctx.urls.api}/repos/${fullName(ctx.repo)}/git/blobs/${ctx.params.sha}`;
      const body = {
        sha: ctx.params.sha,
        node_id: Buffer.from(`Blob:${ctx.params.sha}`).toString('base64'),
        url,
        size: blob.length,
        content: blob.toString('base64'),
        encoding: 'base64',
      };
      return { status: 200, body };
    },
  },
  {
    operationId: 'git/get-tree',
    method: 'GET',
    pattern: repoPath('/git/trees/(?<sha>[0-9a-f]+)'),
    permission: [['contents', 'read']],
    handle: (ctx) => {
      const recursive = ctx.query.has('recursive');
      const listed = ctx.repo.git.listTree(ctx.params.sha, recursive, ctx.repo.treeListLimit);
      if (!listed) throw notFound();
      const api = `${ctx.urls.api}/repos/${fullName(ctx.repo)}`;
      const tree = listed.items.map((item) => ({
        ...item,
        ...(item.type === 'commit'
          ? {}
          : { url: `${api}/git/${item.type === 'tree' ? 'trees' : 'blobs'}/${item.sha}` }),
      }));
      return {
        status: 200,
        body: {
          sha: ctx.params.sha,
          url: `${api}/git/trees/${ctx.params.sha}`,
          tree,
          truncated: listed.truncated,
        },
      };
    },
  },
  {
    operationId: 'git/create-tree',
    method: 'POST',
    pattern: repoPath('/git/trees'),
    permission: [['contents', 'write']],
    handle: (ctx) => {
      const base = ctx.body.base_tree as string | undefined;
      if (base !== undefined && !ctx.repo.git.trees.has(base))
        throw new HttpFailure(422, 'base_tree is not a valid tree oid');
      const changes = (ctx.body.tree ?? []) as TreeChange[];
      let sha: string;
      try {
        sha = ctx.repo.git.buildTree(base, changes);
      } catch (error) {
        throw validationFailed({
          resource: 'Tree',
          field: 'tree',
          code: 'invalid',
          message: (error as Error).message,
        });
      }
      const api = `${ctx.urls.api}/repos/${fullName(ctx.repo)}`;
      const tree = [...ctx.repo.git.trees.get(sha)!].map(([path, entry]) => ({
        path,
        mode: entry.mode,
        type: 'blob',
        sha: entry.sha,
        size: ctx.repo.git.blobs.get(entry.sha)!.length,
        url: `${api}/git/blobs/${entry.sha}`,
      }));
      return { status: 201, body: { sha, url: `${api}/git/trees/${sha}`, tree, truncated: false } };
    },
  },
  {
    operationId: 'git/create-commit',
    method: 'POST',
    pattern: repoPath('/git/commits'),
    permission: [['contents', 'write']],
    handle: (ctx) => {
      const message = requireString(ctx.body, 'message');
      const treeSha = requireString(ctx.body, 'tree');
      const parents = (ctx.body.parents ?? []) as string[];
      if (!ctx.repo.git.trees.has(treeSha)) throw new HttpFailure(422, 'Tree SHA does not exist');
      if (parents.some((p) => !ctx.repo.git.commits.has(p)))
        throw new HttpFailure(422, 'Parent SHA does not exist or is not a commit object');
      const author = signature(ctx, ctx.body.author);
      const commit = ctx.repo.git.putCommit({
        treeSha,
        message,
        parents,
        author,
        committer: signature(ctx, ctx.body.committer ?? ctx.body.author),
      });
      return { status: 201, body: gitCommit(ctx.repo, commit, ctx.urls) };
    },
  },
  {
    operationId: 'git/get-commit',
    method: 'GET',
    pattern: repoPath('/git/commits/(?<sha>[0-9a-f]+)'),
    permission: [['contents', 'read']],
    handle: (ctx) => {
      const commit = ctx.repo.git.commits.get(ctx.params.sha);
      if (!commit) throw notFound();
      return { status: 200, body: gitCommit(ctx.repo, commit, ctx.urls) };
    },
  },
  {
    operationId: 'repos/get-content',
    method: 'GET',
    pattern: repoPath('/contents/(?<path>.+)'),
    permission: [['contents', 'read']],
    handle: (ctx) => {
      const ref = ctx.query.get('ref') ?? ctx.repo.defaultBranch;
      const commitSha = ctx.repo.branches.get(ref) ?? (ctx.repo.git.commits.has(ref) ? ref : null);
      if (!commitSha) throw new HttpFailure(404, `No commit found for the ref ${ref}`);
      const file = ctx.repo.git.readFile(commitSha, ctx.params.path);
      if (!file) throw notFound();
      return { status: 200, body: contentFile(ctx.repo, ctx.params.path, ref, file, ctx.urls) };
    },
  },
];
