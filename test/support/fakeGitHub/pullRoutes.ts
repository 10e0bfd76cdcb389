import { issueComment, pullRequest, pullRequestSimple } from './objects.ts';
import {
  notFound,
  repoPath,
  requireString,
  validationFailed,
  type Route,
  type RouteContext,
} from './route.ts';
import type { PullRequestRecord } from './state.ts';

/** Pull request and issue comment endpoints of the fake GitHub. */

function pullOf(ctx: RouteContext): PullRequestRecord {
  const pull = ctx.repo.pulls.get(Number(ctx.params.number));
  if (!pull) throw notFound();
  return pull;
}

/** `head` is `branch` or `owner:branch`; only same-repository heads exist in this fake. */
function headBranch(ctx: RouteContext, head: string): string | null {
  const [owner, branch] = head.includes(':') ? head.split(':', 2) : [ctx.repo.owner, head];
  return owner === ctx.repo.owner ? branch : null;
}

export const pullRoutes: Route[] = [
  {
    operationId: 'pulls/create',
    method: 'POST',
    pattern: repoPath('/pulls'),
    permission: [['pull_requests', 'write']],
    handle: (ctx) => {
      const { repo } = ctx;
      const title = requireString(ctx.body, 'title');
      const head = headBranch(ctx, requireString(ctx.body, 'head'));
      const base = requireString(ctx.body, 'base');
      if (head === null || !repo.branches.has(head))
        throw validationFailed({ resource: 'PullRequest', field: 'head', code: 'invalid' });
      if (!repo.branches.has(base))
        throw validationFailed({ resource: 'PullRequest', field: 'base', code: 'invalid' });
      const open = [...repo.pulls.values()].find(
        (p) => p.state === 'open' && p.head === head && p.base === base,
      );
      if (open) {
        throw validationFailed({
          resource: 'PullRequest',
          code: 'custom',
          message: `A pull request already exists for ${repo.owner}:${head}.`,
        });
      }
      if (repo.git.isAncestor(repo.branches.get(head)!, repo.branches.get(base)!)) {
        throw validationFailed({
          resource: 'PullRequest',
          code: 'custom',
          message: `No commits between ${base} and ${head}`,
        });
      }
      const number = repo.nextNumber++;
      const now = ctx.nowIso();
      const pull: PullRequestRecord = {
        number,
        id: repo.id * 1000 + number,
        title,
        body: typeof ctx.body.body === 'string' ? ctx.body.body : null,
        head,
        base,
        author: ctx.actor!.login,
        state: 'open',
        merged: false,
        mergedAt: null,
        mergedBy: null,
        mergeCommitSha: null,
        closedAt: null,
        createdAt: now,
        updatedAt: now,
        closedHeadSha: null,
      };
      repo.pulls.set(number, pull);
      return { status: 201, body: pullRequest(repo, pull, ctx.urls) };
    },
  },
  {
    operationId: 'pulls/list',
    method: 'GET',
    pattern: repoPath('/pulls'),
    permission: [['pull_requests', 'read']],
    handle: (ctx) => {
      const state = ctx.query.get('state') ?? 'open';
      const head = ctx.query.get('head');
      const base = ctx.query.get('base');
      const perPage = Math.min(Number(ctx.query.get('per_page') ?? 30), 100);
      const page = Number(ctx.query.get('page') ?? 1);
      const headFilter = head === null ? null : headBranch(ctx, head);
      const matching = [...ctx.repo.pulls.values()]
        .filter((p) => state === 'all' || p.state === state)
        .filter((p) => head === null || p.head === headFilter)
        .filter((p) => base === null || p.base === base)
        .sort((a, b) => b.number - a.number);
      const slice = matching.slice((page - 1) * perPage, page * perPage);
      return { status: 200, body: slice.map((p) => pullRequestSimple(ctx.repo, p, ctx.urls)) };
    },
  },
  {
    operationId: 'pulls/get',
    method: 'GET',
    pattern: repoPath('/pulls/(?<number>\\d+)'),
    permission: [['pull_requests', 'read']],
    handle: (ctx) => ({ status: 200, body: pullRequest(ctx.repo, pullOf(ctx), ctx.urls) }),
  },
  {
    operationId: 'pulls/update',
    method: 'PATCH',
    pattern: repoPath('/pulls/(?<number>\\d+)'),
    permission: [['pull_requests', 'write']],
    handle: (ctx) => {
      const pull = pullOf(ctx);
      if (typeof ctx.body.title === 'string') pull.title = ctx.body.title;
      if (typeof ctx.body.body === 'string') pull.body = ctx.body.body;
      pull.updatedAt = ctx.nowIso();
      return { status: 200, body: pullRequest(ctx.repo, pull, ctx.urls) };
    },
  },
  {
    operationId: 'issues/list-comments',
    method: 'GET',
    pattern: repoPath('/issues/(?<number>\\d+)/comments'),
    permission: [
      ['issues', 'read'],
      ['pull_requests', 'read'],
    ],
    handle: (ctx) => {
      const pull = pullOf(ctx);
      const perPage = Math.min(Number(ctx.query.get('per_page') ?? 30), 100);
      const page = Number(ctx.query.get('page') ?? 1);
      const comments = ctx.repo.comments
        .filter((c) => c.issueNumber === pull.number)
        .slice((page - 1) * perPage, page * perPage);
      return { status: 200, body: comments.map((c) => issueComment(ctx.repo, c, ctx.urls)) };
    },
  },
  {
    operationId: 'issues/create-comment',
    method: 'POST',
    pattern: repoPath('/issues/(?<number>\\d+)/comments'),
    permission: [
      ['issues', 'write'],
      ['pull_requests', 'write'],
    ],
    handle: (ctx) => {
      const pull = pullOf(ctx);
      const body = requireString(ctx.body, 'body');
      const comment = {
        id: 90_000 + ctx.repo.comments.length + 1,
        issueNumber: pull.number,
        body,
        author: ctx.actor!.login,
        createdAt: ctx.nowIso(),
      };
      ctx.repo.comments.push(comment);
      return { status: 201, body: issueComment(ctx.repo, comment, ctx.urls) };
    },
  },
];
