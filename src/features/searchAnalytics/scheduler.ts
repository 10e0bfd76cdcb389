import type { AccountDoc } from '../../../projections/accounts.ts';
import {
  SEARCH_ANALYTICS_COLLECTION,
  type SearchAnalyticsDoc,
} from '../../../projections/searchAnalytics.ts';
import type { Worker } from '../../consumers/worker.ts';
import { periodicWorker } from '../../consumers/periodicWorker.ts';
import { eachDoc } from '../../readstore/eachDoc.ts';
import { deriveId } from '../../core/ids.ts';
import { loadStream, type CommandContext } from '../../eventstore/handleCommand.ts';
import type { Platform } from '../../platform.ts';
import { searchAnalyticsStream } from '../../domain/searchAnalytics/decide.ts';

export const SEARCH_SCHEDULER = 'searchAnalytics.scheduler';
export const SYNC_INTERVAL_MS = 24 * 3_600_000;

export type SchedulerOptions = {
  /** Time between two looks at the connections, on the platform' clock. */
  checkEveryMs?: number;
  /** How often (real time) the clock is looked at. */
  tickMs?: number;
};

/**
 * The daily sync: each working connection whose last sync was asked for 24 hours ago or more (on
 * the platform' clock) gets a new one, unless the account's plan no longer includes search
 * analytics. The command id names the run it follows, so a restarted scheduler asks only once.
 */
type SchedulerDeps = Pick<
  Platform,
  'clock' | 'logger' | 'ids' | 'readStore' | 'eventStore' | 'plans' | 'commands'
>;

export function searchSyncScheduler(options: SchedulerOptions = {}): Worker<SchedulerDeps> {
  return periodicWorker({
    name: SEARCH_SCHEDULER,
    everyMs: options.checkEveryMs ?? 60_000,
    tickMs: options.tickMs,
    failureMessage: 'search analytics scheduling pass failed',
    async pass(platform: SchedulerDeps, nowMs, log) {
      const passId = platform.ids.next('run');
      for await (const doc of eachDoc<SearchAnalyticsDoc>(
        platform.readStore,
        SEARCH_ANALYTICS_COLLECTION,
        { status: 'ok' },
      )) {
        if (!due(doc.lastSync?.requestedAt, nowMs)) continue;
        await requestSync(platform, doc, passId, nowMs).catch((error: unknown) =>
          log.warn(
            { err: error, projectId: doc.projectId },
            'could not ask for the daily sync; the next pass tries again',
          ),
        );
      }
    },
  });
}

const due = (requestedAt: string | undefined, nowMs: number) =>
  !requestedAt || nowMs - Date.parse(requestedAt) >= SYNC_INTERVAL_MS;

async function planAllows(platform: SchedulerDeps, accountId: string): Promise<boolean> {
  const account = await platform.readStore.get<AccountDoc>('accounts', accountId);
  return !!account && platform.plans[account.plan].features.includes('search_analytics');
}

async function requestSync(
  platform: SchedulerDeps,
  doc: SearchAnalyticsDoc,
  passId: string,
  nowMs: number,
): Promise<void> {
  if (!(await planAllows(platform, doc.accountId))) return;
  const { state } = await loadStream(platform.eventStore, searchAnalyticsStream, doc.projectId);
  if (state.connection?.status !== 'ok' || !due(state.sync?.requestedAt, nowMs)) return;
  const commandId = `${SEARCH_SCHEDULER}:${doc.projectId}:after:${state.sync?.syncId ?? 'none'}`;
  const context: CommandContext = {
    accountId: doc.accountId,
    actor: { kind: 'system', worker: SEARCH_SCHEDULER },
    correlationId: passId,
    requestId: passId,
    commandId,
  };
  await platform.commands.execute(
    searchAnalyticsStream,
    doc.projectId,
    {
      type: 'RequestSearchSync',
      syncId: deriveId('run', nowMs, commandId),
      trigger: 'schedule',
      at: new Date(nowMs).toISOString(),
    },
    context,
  );
}
