import { AppError } from '../../core/errors.ts';
import type { StreamType } from '../../eventstore/handleCommand.ts';
import type { DateRange } from '../../core/dateRange.ts';
import {
  evolveSearchAnalytics,
  initialSearchAnalytics,
  SEARCH_ANALYTICS_CATEGORY,
  SEARCH_PROVIDER,
  type CredentialSummary,
  type SearchAnalytics,
  type SearchAnalyticsEvent,
} from './searchAnalytics.ts';

/** A run that has not finished after this long is taken for lost (a crash mid-run): a new one may start. */
export const SYNC_STALE_MS = 2 * 3_600_000;

type RunOutcome = { syncId: string; at: string };

export type SearchAnalyticsCommand =
  | {
      type: 'ConnectSearchAnalytics';
      projectId: string;
      accountId: string;
      connectionId: string;
      syncId: string;
      property: string;
      urlPattern: string;
      /** Record 16 months of daily figures on the first sync. */
      backfill?: boolean;
      credentials: CredentialSummary;
      sealedCredentials: string;
      at: string;
    }
  | { type: 'DisconnectSearchAnalytics'; at: string }
  | { type: 'RequestSearchSync'; syncId: string; trigger: 'api' | 'schedule'; at: string }
  | (RunOutcome & {
      type: 'CompleteSearchSync';
      period: DateRange;
      previousPeriod: DateRange;
      articles: number;
      withTraffic: number;
    })
  | (RunOutcome & { type: 'FailSearchSync'; reason: string })
  | (RunOutcome & { type: 'MarkSearchConnectionBroken'; reason: string });

const notConnected = () =>
  new AppError('not_found', 'This project has no search-analytics connection.');

/** The run's outcome applies only while it is the current run of the current connection. */
function currentRun(state: SearchAnalytics, syncId: string) {
  const { connection, sync, projectId } = state;
  if (
    !connection ||
    !sync ||
    !projectId ||
    sync.syncId !== syncId ||
    sync.status !== 'running' ||
    sync.connectionId !== connection.connectionId
  )
    return null;
  return { projectId, connectionId: connection.connectionId, syncId };
}

export function decideSearchAnalytics(
  command: SearchAnalyticsCommand,
  state: SearchAnalytics,
): SearchAnalyticsEvent[] {
  switch (command.type) {
    case 'ConnectSearchAnalytics': {
      const {
        projectId,
        accountId,
        connectionId,
        syncId,
        property,
        urlPattern,
        backfill,
        credentials,
        sealedCredentials,
        at,
      } = command;
      return [
        {
          type: 'SearchAnalyticsConnected',
          data: {
            projectId,
            accountId,
            connectionId,
            provider: SEARCH_PROVIDER,
            property,
            urlPattern,
            credentials,
            sealedCredentials,
            at,
            ...(backfill ? { backfill: true } : {}),
          },
        },
        {
          type: 'SearchAnalyticsSyncRequested',
          data: { projectId, connectionId, syncId, trigger: 'connect', at },
        },
      ];
    }
    case 'DisconnectSearchAnalytics':
      if (!state.connection || !state.projectId) throw notConnected();
      return [
        {
          type: 'SearchAnalyticsDisconnected',
          data: {
            projectId: state.projectId,
            connectionId: state.connection.connectionId,
            at: command.at,
          },
        },
      ];
    case 'RequestSearchSync': {
      const { connection, sync, projectId } = state;
      if (!connection || !projectId) throw notConnected();
      if (connection.status === 'broken') {
        throw new AppError(
          'invalid_state',
          `The search-analytics connection is broken, so nothing is synced until new credentials are saved with PUT: ${connection.brokenReason}`,
        );
      }
      const running =
        sync?.status === 'running' &&
        sync.connectionId === connection.connectionId &&
        Date.parse(command.at) - Date.parse(sync.requestedAt) < SYNC_STALE_MS;
      if (running) return [];
      const { syncId, trigger, at } = command;
      return [
        {
          type: 'SearchAnalyticsSyncRequested',
          data: { projectId, connectionId: connection.connectionId, syncId, trigger, at },
        },
      ];
    }
    case 'CompleteSearchSync': {
      const run = currentRun(state, command.syncId);
      if (!run) return [];
      const { period, previousPeriod, articles, withTraffic, at } = command;
      return [
        {
          type: 'SearchAnalyticsSyncCompleted',
          data: { ...run, period, previousPeriod, articles, withTraffic, at },
        },
      ];
    }
    case 'FailSearchSync':
    case 'MarkSearchConnectionBroken': {
      const run = currentRun(state, command.syncId);
      if (!run) return [];
      const type =
        command.type === 'FailSearchSync'
          ? 'SearchAnalyticsSyncFailed'
          : 'SearchAnalyticsConnectionBroken';
      return [{ type, data: { ...run, reason: command.reason, at: command.at } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const searchAnalyticsStream: StreamType<
  SearchAnalytics,
  SearchAnalyticsEvent,
  SearchAnalyticsCommand
> = {
  category: SEARCH_ANALYTICS_CATEGORY,
  initial: initialSearchAnalytics,
  evolve: evolveSearchAnalytics,
  decide: decideSearchAnalytics,
};
