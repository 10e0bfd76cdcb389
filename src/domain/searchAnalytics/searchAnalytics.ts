import type { EventNames } from '../../eventstore/handleCommand.ts';
import type { DateRange } from '../../core/dateRange.ts';

/**
 * A project's search-analytics connection as an event stream of its own, keyed by the project id:
 * which Search Console property, with which credentials (only ever sealed in the log), how article
 * URLs are built, and each sync run. A connection is `ok` until Google refuses its credentials or
 * access to the property during a sync; then it is `broken`, with the reason, and is not synced
 * again until new credentials are saved.
 */
export const SEARCH_ANALYTICS_CATEGORY = 'searchAnalytics';
export const SEARCH_PROVIDER = 'google-search-console';

/** What the API may show of a credential: its kind, and a service account's e-mail (the user to add in Search Console). */
export type CredentialSummary =
  | { type: 'oauth' }
  | { type: 'service_account'; clientEmail: string };

export type SyncTrigger = 'connect' | 'api' | 'schedule';

type Ids = { projectId: string; connectionId: string; syncId: string };

export type SearchAnalyticsEvent =
  | {
      type: 'SearchAnalyticsConnected';
      data: {
        projectId: string;
        accountId: string;
        connectionId: string;
        provider: typeof SEARCH_PROVIDER;
        property: string;
        urlPattern: string;
        credentials: CredentialSummary;
        sealedCredentials: string;
        at: string;
        /** Absent on connections made before backfills: false. */
        backfill?: boolean;
      };
    }
  | {
      type: 'SearchAnalyticsDisconnected';
      data: { projectId: string; connectionId: string; at: string };
    }
  | { type: 'SearchAnalyticsSyncRequested'; data: Ids & { trigger: SyncTrigger; at: string } }
  | {
      type: 'SearchAnalyticsSyncCompleted';
      data: Ids & {
        period: DateRange;
        previousPeriod: DateRange;
        articles: number;
        withTraffic: number;
        at: string;
      };
    }
  /** Google could not be asked (quota, outage) even after retries: the connection stays ok, the next run tries again. */
  | { type: 'SearchAnalyticsSyncFailed'; data: Ids & { reason: string; at: string } }
  /** Google refused the credentials or the property: only new credentials (or a change in Search Console) fix it. */
  | { type: 'SearchAnalyticsConnectionBroken'; data: Ids & { reason: string; at: string } };

/** Every type of SearchAnalyticsEvent, as data: a read model skips (and logs) a type it does not know. */
export const SEARCH_ANALYTICS_EVENTS: EventNames<SearchAnalyticsEvent> = {
  SearchAnalyticsConnected: true,
  SearchAnalyticsDisconnected: true,
  SearchAnalyticsSyncRequested: true,
  SearchAnalyticsSyncCompleted: true,
  SearchAnalyticsSyncFailed: true,
  SearchAnalyticsConnectionBroken: true,
};

export type SearchConnection = {
  connectionId: string;
  provider: typeof SEARCH_PROVIDER;
  property: string;
  urlPattern: string;
  credentials: CredentialSummary;
  sealedCredentials: string;
  backfill?: boolean;
  connectedAt: string;
  status: 'ok' | 'broken';
  brokenReason: string | null;
};

export type SyncRun = {
  syncId: string;
  connectionId: string;
  trigger: SyncTrigger;
  requestedAt: string;
  status: 'running' | 'completed' | 'failed' | 'broken';
  finishedAt: string | null;
};

export type SearchAnalytics = {
  projectId: string | null;
  accountId: string | null;
  connection: SearchConnection | null;
  /** The latest run, of this connection or an earlier one. */
  sync: SyncRun | null;
};

export const initialSearchAnalytics = (): SearchAnalytics => ({
  projectId: null,
  accountId: null,
  connection: null,
  sync: null,
});

const finish = (state: SearchAnalytics, status: SyncRun['status'], at: string): SearchAnalytics =>
  state.sync ? { ...state, sync: { ...state.sync, status, finishedAt: at } } : state;

export function evolveSearchAnalytics(
  state: SearchAnalytics,
  event: SearchAnalyticsEvent,
): SearchAnalytics {
  switch (event.type) {
    case 'SearchAnalyticsConnected': {
      const { projectId, accountId, at, ...connection } = event.data;
      return {
        ...state,
        projectId,
        accountId,
        connection: { ...connection, connectedAt: at, status: 'ok', brokenReason: null },
      };
    }
    case 'SearchAnalyticsDisconnected':
      return { ...state, connection: null };
    case 'SearchAnalyticsSyncRequested': {
      const { syncId, connectionId, trigger, at } = event.data;
      return {
        ...state,
        sync: {
          syncId,
          connectionId,
          trigger,
          requestedAt: at,
          status: 'running',
          finishedAt: null,
        },
      };
    }
    case 'SearchAnalyticsSyncCompleted':
      return finish(state, 'completed', event.data.at);
    case 'SearchAnalyticsSyncFailed':
      return finish(state, 'failed', event.data.at);
    case 'SearchAnalyticsConnectionBroken': {
      const broken = finish(state, 'broken', event.data.at);
      return broken.connection
        ? {
            ...broken,
            connection: { ...broken.connection, status: 'broken', brokenReason: event.data.reason },
          }
        : broken;
    }
    default:
      return state;
  }
}
