import type { Logger } from 'pino';
import type { ArticleDoc } from '../../../../projections/articles.ts';
import { periodicWorker } from '../../../consumers/periodicWorker.ts';
import type { Worker } from '../../../consumers/worker.ts';
import { isFinalBuild } from '../../../domain/articles/build.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { Platform } from '../../../platform.ts';
import { eachDoc } from '../../../readstore/eachDoc.ts';
import { BUILD_WATCH, ensurePublishingCollections } from '../collections.ts';
import type { BuildWatchDoc } from './buildWatchDoc.ts';
import { githubClients } from '../github/githubClients.ts';
import { buildWebhookSeenSince } from './buildEvents.ts';
import { readBuild } from './readBuild.ts';

export const BUILD_WATCHER = 'publishing.build';

/** How the watcher is timed; tests shorten the pass and the real-time tick. */
export type BuildWatchTiming = {
  /** Clock time between two passes over the open pull requests. */
  intervalMs?: number;
  tickMs?: number;
  /** Waits between two reads of one commit: the first read at once, then these, the last repeated. */
  backoffMs?: readonly number[];
  /** A commit is followed this long after it became the head, then left (unless a webhook nudges it). */
  capMs?: number;
};

export const BUILD_PASS_MS = 5_000;
export const BUILD_BACKOFF_MS = [15_000, 30_000, 60_000, 120_000, 240_000, 300_000] as const;
export const BUILD_CAP_MS = 60 * 60_000;
/** A project that received a build webhook this recently is read when GitHub says so, not on a timer. */
export const WEBHOOK_FRESH_MS = 24 * 60 * 60_000;

/**
 * Follows the site's build of every open Inkstream pull request's head commit (after the PR is
 * opened, and after each revision commit moves the head): reads it over REST with backoff until
 * every check is final or the cap passes, and records `RecordBuild` when it changed (the article's
 * decide records nothing for the same build, so a crash and a re-read duplicate nothing). With the
 * build webhooks configured, a commit is read when a delivery nudges it rather than on the timer.
 */
export function buildWatcher(timing: BuildWatchTiming = {}): Worker<Platform> {
  const backoff = timing.backoffMs ?? BUILD_BACKOFF_MS;
  const capMs = timing.capMs ?? BUILD_CAP_MS;
  return periodicWorker({
    name: BUILD_WATCHER,
    everyMs: timing.intervalMs ?? BUILD_PASS_MS,
    tickMs: timing.tickMs,
    failureMessage: 'site build pass failed',
    async pass(platform: Platform, nowMs, log) {
      await ensurePublishingCollections(platform.readStore);
      for await (const doc of eachDoc<ArticleDoc>(platform.readStore, 'articles', {
        status: 'pr_open',
      })) {
        try {
          await watchArticle(platform, log, doc, nowMs, backoff, capMs);
        } catch (error) {
          log.warn(
            { err: error, articleId: doc.id },
            "could not read the site's build; the next pass tries again",
          );
        }
      }
    },
  });
}

async function watchArticle(
  platform: Platform,
  log: Logger,
  doc: ArticleDoc,
  nowMs: number,
  backoff: readonly number[],
  capMs: number,
): Promise<void> {
  const { state: article } = await loadStream(platform.eventStore, articleStream, doc.id);
  if (article.status !== 'pr_open' || !article.headSha || !article.path) return;
  const stored = await platform.readStore.get<BuildWatchDoc>(BUILD_WATCH, article.id);
  const watch: BuildWatchDoc =
    stored && stored.headSha === article.headSha
      ? stored
      : {
          id: article.id,
          headSha: article.headSha,
          sinceMs: nowMs,
          lastReadMs: null,
          reads: 0,
          nudged: false,
        };
  const current = article.build?.headSha === article.headSha ? article.build : null;
  if (!watch.nudged && watch.lastReadMs !== null) {
    if (isFinalBuild(current) || nowMs - watch.sinceMs > capMs) return;
    const wait = backoff[Math.min(watch.reads - 1, backoff.length - 1)];
    if (nowMs - watch.lastReadMs < wait) return;
    if (
      await buildWebhookSeenSince(platform.readStore, article.projectId, nowMs - WEBHOOK_FRESH_MS)
    )
      return;
  }
  const connection = (await loadStream(platform.eventStore, integrationsStream, article.projectId))
    .state.github;
  if (!connection) return;
  const accountId = doc.accountId;
  const repo = githubClients(platform)
    .forConnection(connection, { accountId, projectId: article.projectId })
    .repository({ owner: connection.owner, repo: connection.repo });
  const build = await readBuild(repo, article.headSha, article.path);
  // Saved before the command: a crash between the two re-reads later, and the same build records nothing.
  await platform.readStore.save(BUILD_WATCH, {
    ...watch,
    lastReadMs: nowMs,
    reads: watch.reads + 1,
    nudged: false,
  });
  const result = await platform.commands.execute(
    articleStream,
    article.id,
    { type: 'RecordBuild', build, at: platform.clock.now() },
    {
      accountId,
      actor: { kind: 'system', worker: BUILD_WATCHER },
      correlationId: `${BUILD_WATCHER}:${article.id}`,
      requestId: `${BUILD_WATCHER}:${article.id}`,
      commandId: `${BUILD_WATCHER}:${article.id}:${article.headSha}:${watch.reads + 1}`,
    },
  );
  if (result.events.length)
    log.info(
      { articleId: article.id, headSha: article.headSha, state: build.state },
      'site build changed',
    );
}
