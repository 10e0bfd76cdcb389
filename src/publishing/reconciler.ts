import type { ArticleDoc } from '../../projections/articles.ts';
import type { Worker } from '../background.ts';
import { articleStream } from '../articles/decide.ts';
import { loadStream, type CommandContext } from '../eventstore/handleCommand.ts';
import type { Services } from '../services.ts';
import { integrationsStream } from './connectionDecide.ts';
import { githubClients } from './githubClients.ts';

export const RECONCILER = 'publishing.reconciler';
export const RECONCILE_INTERVAL_MS = 5 * 60_000;

export type ReconcilerOptions = {
  /** Time between two passes, on the services' clock. */
  intervalMs?: number;
  /** How often (real time) the clock is looked at. */
  tickMs?: number;
};

/**
 * Notices merges and closes of Inkstream pull requests without the GitHub webhook (not set up,
 * or a delivery lost): every interval it reads each open Inkstream PR from GitHub and records
 * what happened. It records the same facts as the webhook would, and whichever comes second
 * decides nothing. A pass runs at start too, for what happened while the server was down.
 */
export function pullRequestReconciler(options: ReconcilerOptions = {}): Worker {
  const intervalMs = options.intervalMs ?? RECONCILE_INTERVAL_MS;
  const tickMs = options.tickMs ?? 1_000;
  return {
    name: RECONCILER,
    async start(services: Services) {
      const log = services.logger.child({ worker: RECONCILER });
      let lastPassMs: number | null = null;
      let pass: Promise<void> | null = null;

      async function reconcileArticle(doc: ArticleDoc, passId: string): Promise<void> {
        const { state: article } = await loadStream(services.eventStore, articleStream, doc.id);
        if (article.status !== 'pr_open' || !article.pr) return;
        const connection = (await loadStream(services.eventStore, integrationsStream, article.projectId)).state.github;
        if (!connection) return;
        const repo = githubClients(services).forConnection(connection).repository({ owner: connection.owner, repo: connection.repo });
        const pull = await repo.getPullRequest(article.pr.number);
        // Another repository's PR with the same number, after the connection moved: not this article's.
        if (pull.state === 'open' || pull.headRef !== article.pr.branch) return;
        const context: CommandContext = {
          accountId: doc.accountId, actor: { kind: 'system', worker: RECONCILER }, correlationId: passId, requestId: passId,
          commandId: `${RECONCILER}:${article.id}:${article.pr.number}:${pull.merged ? 'merged' : 'closed'}`,
        };
        const at = services.clock.now();
        const command = pull.merged
          ? { type: 'RecordMerged' as const, commitSha: null, prUrl: pull.htmlUrl, path: article.path ?? '', mergedBy: null, at: pull.mergedAt ?? at }
          : { type: 'RecordClosed' as const, prUrl: pull.htmlUrl, closedBy: null, at };
        const result = await services.execute(articleStream, article.id, command, context);
        if (result.events.length) log.info({ articleId: article.id, prNumber: pull.number, merged: pull.merged }, 'pull request outcome noticed without a webhook');
      }

      async function runPass(): Promise<void> {
        const passId = services.ids.next('run');
        let cursor: string | undefined;
        do {
          const page = await services.readStore.find<ArticleDoc>('articles', { filter: { status: 'pr_open' }, limit: 100, cursor });
          for (const doc of page.items) {
            try {
              await reconcileArticle(doc, passId);
            } catch (error) {
              log.warn({ err: error, articleId: doc.id }, 'could not check the pull request; next pass tries again');
            }
          }
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }

      const timer = setInterval(() => {
        const nowMs = services.clock.nowMs();
        if (pass || (lastPassMs !== null && nowMs - lastPassMs < intervalMs)) return;
        lastPassMs = nowMs;
        pass = runPass()
          .catch((error) => log.error({ err: error }, 'reconciliation pass failed'))
          .finally(() => { pass = null; });
      }, tickMs);
      timer.unref();

      return {
        async stop() {
          clearInterval(timer);
          await pass;
        },
      };
    },
  };
}
