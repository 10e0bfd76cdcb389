import type { StoredEvent } from '../src/eventstore/port.ts';
import type { DateRange } from '../src/core/dateRange.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import {
  SEARCH_ANALYTICS_EVENTS,
  type CredentialSummary,
  type SearchAnalyticsEvent,
  type SyncTrigger,
} from '../src/domain/searchAnalytics/searchAnalytics.ts';

export type SyncSummary = {
  id: string;
  trigger: SyncTrigger;
  status: 'running' | 'completed' | 'failed' | 'broken';
  requestedAt: string;
  finishedAt: string | null;
  reason: string | null;
  period: DateRange | null;
  previousPeriod: DateRange | null;
  articles: number | null;
  withTraffic: number | null;
};

/** A project's search-analytics connection as GET shows it (never a credential); gone when disconnected. */
export type SearchAnalyticsDoc = {
  id: string;
  accountId: string;
  projectId: string;
  provider: string;
  property: string;
  urlPattern: string;
  /** Absent on documents built before backfills: false. */
  backfill?: boolean;
  credentials: CredentialSummary;
  status: 'ok' | 'broken';
  reason: string | null;
  brokenAt: string | null;
  connectedAt: string;
  lastSync: SyncSummary | null;
  lastCompletedSync: {
    id: string;
    finishedAt: string;
    period: DateRange;
    previousPeriod: DateRange;
  } | null;
  updatedAt: string;
};

export const SEARCH_ANALYTICS_COLLECTION = 'search_analytics';

export const searchAnalytics = defineProjection<SearchAnalyticsDoc, SearchAnalyticsEvent>({
  name: 'searchAnalytics',
  collection: SEARCH_ANALYTICS_COLLECTION,
  indexes: ['accountId', 'status'],
  categories: ['searchAnalytics'],
  events: SEARCH_ANALYTICS_EVENTS,
  documentId: (event) => String(event.data.projectId),
  evolve(doc, event) {
    if (event.type === 'SearchAnalyticsConnected') {
      const { projectId, accountId, provider, property, urlPattern, credentials, at } = event.data;
      return {
        id: projectId,
        accountId,
        projectId,
        provider,
        property,
        urlPattern,
        backfill: event.data.backfill ?? false,
        credentials,
        status: 'ok',
        reason: null,
        brokenAt: null,
        // New credentials for the same property keep its last good sync; another property starts afresh.
        connectedAt: at,
        lastSync: doc?.lastSync ?? null,
        lastCompletedSync: doc?.property === property ? doc.lastCompletedSync : null,
        updatedAt: at,
      };
    }
    if (!doc) return doc;
    const updatedAt = event.data.at;
    const run =
      doc.lastSync && 'syncId' in event.data && doc.lastSync.id === event.data.syncId
        ? doc.lastSync
        : null;
    switch (event.type) {
      case 'SearchAnalyticsDisconnected':
        return null;
      case 'SearchAnalyticsSyncRequested': {
        const { syncId, trigger, at } = event.data;
        const lastSync: SyncSummary = {
          id: syncId,
          trigger,
          status: 'running',
          requestedAt: at,
          finishedAt: null,
          reason: null,
          period: null,
          previousPeriod: null,
          articles: null,
          withTraffic: null,
        };
        return { ...doc, lastSync, updatedAt };
      }
      case 'SearchAnalyticsSyncCompleted': {
        if (!run) return doc;
        const { period, previousPeriod, articles, withTraffic, at } = event.data;
        return {
          ...doc,
          updatedAt,
          lastSync: {
            ...run,
            status: 'completed',
            finishedAt: at,
            period,
            previousPeriod,
            articles,
            withTraffic,
          },
          lastCompletedSync: { id: run.id, finishedAt: at, period, previousPeriod },
        };
      }
      case 'SearchAnalyticsSyncFailed':
        return run
          ? {
              ...doc,
              updatedAt,
              lastSync: {
                ...run,
                status: 'failed',
                finishedAt: event.data.at,
                reason: event.data.reason,
              },
            }
          : doc;
      case 'SearchAnalyticsConnectionBroken': {
        if (!run) return doc;
        const { reason, at } = event.data;
        return {
          ...doc,
          status: 'broken',
          reason,
          brokenAt: at,
          updatedAt,
          lastSync: { ...run, status: 'broken', finishedAt: at, reason },
        };
      }
      default:
        return doc;
    }
  },
});
