import type { ArticleDoc } from '../../../../projections/articles.ts';
import type { Logger } from 'pino';
import type { Worker } from '../../../consumers/worker.ts';
import { periodicWorker, type PassTiming } from '../../../consumers/periodicWorker.ts';
import { eachDoc } from '../../../readstore/eachDoc.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { loadStream, type CommandContext } from '../../../eventstore/handleCommand.ts';
import type { Platform } from '../../../platform.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { githubClients } from './githubClients.ts';

export const RECONCILER = 'publishing.reconciler';
export const RECONCILE_INTERVAL_MS = 5 * 60_000;

/**
 * Notices merges and closes of Inkstream pull requests without the GitHub webhook (not set up,
 * or a delivery lost): every interval it reads each open Inkstream PR from GitHub and records
 * what happened. It records the same facts as the webhook would, and whichever comes second
 * decides nothing. A pass runs at start too, for what happened while the server was down.
 */
export function pullRequestReconciler(options: PassTiming = {}): Worker<Platform> {
  return periodicWorker({
    name: RECONCILER,
    everyMs: options.intervalMs ?? RECONCILE_INTERVAL_MS,
    tickMs: options.tickMs,
    failureMessage: 'reconciliation pass failed',
    async pass(platform: Platform, _nowMs, log) {
      const passId = platform.ids.next('run');
      for await (const doc of eachDoc<ArticleDoc>(platform.readStore, 'articles', {
        status: 'pr_open',
      })) {
        try {
          await reconcileArticle(platform, log, doc, passId);
        } catch (error) {
          log.warn(
            { err: error, articleId: doc.id },
            'could not check the pull request; next pass tries again',
          );
        }
      }
    },
  });
}

async function reconcileArticle(
  platform: Platform,
  log: Logger,
  doc: ArticleDoc,
  passId: string,
): Promise<void> {
  const { state: article } = await loadStream(platform.eventStore, articleStream, doc.id);
  if (article.status !== 'pr_open' || !article.pr) return;
  const connection = (await loadStream(platform.eventStore, integrationsStream, article.projectId))
    .state.github;
  if (!connection) return;
  const repo = githubClients(platform)
    .forConnection(connection, { accountId: doc.accountId, projectId: article.projectId })
    .repository({ owner: connection.owner, repo: connection.repo });
  const pull = await repo.getPullRequest(article.pr.number);
  // Another repository's PR with the same number, after the connection moved: not this article's.
  if (pull.state === 'open' || pull.headRef !== article.pr.branch) return;
  const context: CommandContext = {
    accountId: doc.accountId,
    actor: { kind: 'system', worker: RECONCILER },
    correlationId: passId,
    requestId: passId,
    commandId: `${RECONCILER}:${article.id}:${article.pr.number}:${pull.merged ? 'merged' : 'closed'}`,
  };
  const at = platform.clock.now();
  const command = pull.merged
    ? {
        type: 'RecordMerged' as const,
        commitSha: null,
        prUrl: pull.htmlUrl,
        path: article.path ?? '',
        mergedBy: null,
        at: pull.mergedAt ?? at,
      }
    : { type: 'RecordClosed' as const, prUrl: pull.htmlUrl, closedBy: null, at };
  const result = await platform.commands.execute(articleStream, article.id, command, context);
  if (result.events.length)
    log.info(
      { articleId: article.id, prNumber: pull.number, merged: pull.merged },
      'pull request outcome noticed without a webhook',
    );
}
