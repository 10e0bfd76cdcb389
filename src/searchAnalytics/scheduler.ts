import type { AccountDoc } from '../../projections/accounts.ts';
import { SEARCH_ANALYTICS_COLLECTION, type SearchAnalyticsDoc } from '../../projections/searchAnalytics.ts';
import type { Worker } from '../background.ts';
import { deriveId } from '../core/ids.ts';
import { loadStream, type CommandContext } from '../eventstore/handleCommand.ts';
import type { Services } from '../services.ts';
import { searchAnalyticsStream } from './decide.ts';

export const SEARCH_SCHEDULER = 'searchAnalytics.scheduler';
export const SYNC_INTERVAL_MS = 24 * 3_600_000;

export type SchedulerOptions = {
  /** Time between two looks at the connections, on the services' clock. */
  checkEveryMs?: number;
  /** How often (real time) the clock is looked at. */
  tickMs?: number;
};

/**
 * The daily sync: each working connection whose last sync was asked for 24 hours ago or more (on
 * the services' clock) gets a new one, unless the account's plan no longer includes search
 * analytics. The command id names the run it follows, so a restarted scheduler asks only once.
 */
export function searchSyncScheduler(options: SchedulerOptions = {}): Worker {
  const checkEveryMs = options.checkEveryMs ?? 60_000;
  const tickMs = options.tickMs ?? 1_000;
  return {
    name: SEARCH_SCHEDULER,
    async start(services: Services) {
      const log = services.logger.child({ worker: SEARCH_SCHEDULER });
      let lastPassMs: number | null = null;
      let pass: Promise<void> | null = null;

      const due = (requestedAt: string | undefined, nowMs: number) => !requestedAt || nowMs - Date.parse(requestedAt) >= SYNC_INTERVAL_MS;

      async function planAllows(accountId: string): Promise<boolean> {
        const account = await services.readStore.get<AccountDoc>('accounts', accountId);
        return !!account && services.plans[account.plan].features.includes('search_analytics');
      }

      async function requestSync(doc: SearchAnalyticsDoc, passId: string, nowMs: number): Promise<void> {
        if (!(await planAllows(doc.accountId))) return;
        const { state } = await loadStream(services.eventStore, searchAnalyticsStream, doc.projectId);
        if (state.connection?.status !== 'ok' || !due(state.sync?.requestedAt, nowMs)) return;
        const commandId = `${SEARCH_SCHEDULER}:${doc.projectId}:after:${state.sync?.syncId ?? 'none'}`;
        const context: CommandContext = { accountId: doc.accountId, actor: { kind: 'system', worker: SEARCH_SCHEDULER }, correlationId: passId, requestId: passId, commandId };
        await services.execute(searchAnalyticsStream, doc.projectId, {
          type: 'RequestSearchSync', syncId: deriveId('run', nowMs, commandId), trigger: 'schedule', at: new Date(nowMs).toISOString(),
        }, context);
      }

      async function runPass(nowMs: number): Promise<void> {
        const passId = services.ids.next('run');
        let cursor: string | undefined;
        do {
          const page = await services.readStore.find<SearchAnalyticsDoc>(SEARCH_ANALYTICS_COLLECTION, { filter: { status: 'ok' }, limit: 100, cursor });
          for (const doc of page.items) {
            if (!due(doc.lastSync?.requestedAt, nowMs)) continue;
            await requestSync(doc, passId, nowMs).catch((error: unknown) => log.warn({ err: error, projectId: doc.projectId }, 'could not ask for the daily sync; the next pass tries again'));
          }
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }

      const timer = setInterval(() => {
        const nowMs = services.clock.nowMs();
        if (pass || (lastPassMs !== null && nowMs - lastPassMs < checkEveryMs)) return;
        lastPassMs = nowMs;
        pass = runPass(nowMs)
          .catch((error) => log.error({ err: error }, 'search analytics scheduling pass failed'))
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
