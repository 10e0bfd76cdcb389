import { simpleUser } from './objects.ts';
import { HttpFailure, repoPath, requireString, validationFailed, type Route } from './route.ts';
import { fullName, type StatusRecord } from './state.ts';

/** Commit statuses: what a CI (or Inkstream's quality gate) reports on a commit. */

const STATES = ['error', 'failure', 'pending', 'success'] as const;

export const statusRoutes: Route[] = [
  {
    operationId: 'repos/create-commit-status',
    method: 'POST',
    pattern: repoPath('/statuses/(?<sha>[0-9a-f]{40})'),
    permission: [['statuses', 'write']],
    handle: (ctx) => {
      const { repo } = ctx;
      const state = requireString(ctx.body, 'state');
      if (!(STATES as readonly string[]).includes(state))
        throw validationFailed({ resource: 'Status', field: 'state', code: 'invalid' });
      const description = typeof ctx.body.description === 'string' ? ctx.body.description : null;
      if (description && description.length > 140)
        throw validationFailed({
          resource: 'Status',
          field: 'description',
          code: 'custom',
          message: 'description is too long (maximum is 140 characters)',
        });
      if (!repo.git.commits.has(ctx.params.sha))
        throw new HttpFailure(422, `No commit found for SHA: ${ctx.params.sha}`);
      const now = ctx.nowIso();
      const status: StatusRecord = {
        id: repo.statuses.length + 1,
        sha: ctx.params.sha,
        state: state as StatusRecord['state'],
        context: typeof ctx.body.context === 'string' ? ctx.body.context : 'default',
        description,
        targetUrl: typeof ctx.body.target_url === 'string' ? ctx.body.target_url : null,
        creator: ctx.actor!.login,
        createdAt: now,
      };
      repo.statuses.push(status);
      const url = `${ctx.urls.api}/repos/${fullName(repo)}/statuses/${status.sha}`;
      return {
        status: 201,
        body: {
          url,
          avatar_url: `${ctx.urls.html}/${status.creator}.png`,
          id: status.id,
          node_id: `SC_${status.id}`,
          state: status.state,
          description: status.description,
          target_url: status.targetUrl,
          context: status.context,
          created_at: now,
          updated_at: now,
          creator: simpleUser(status.creator, ctx.urls),
        },
      };
    },
  },
];
