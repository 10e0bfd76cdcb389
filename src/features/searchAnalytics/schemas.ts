import { z } from 'zod';
import { SEARCH_PROVIDER } from '../../domain/searchAnalytics/searchAnalytics.ts';

/** The response shapes of the search-analytics endpoints and the `searchMetrics` of articles. */

const Period = z
  .object({ start: z.string(), end: z.string() })
  .describe('Whole days (YYYY-MM-DD), both ends included');
const Totals = {
  clicks: z.number().int(),
  impressions: z.number().int(),
  ctr: z.number().describe('clicks / impressions, 0 to 1'),
  position: z
    .number()
    .nullable()
    .describe('Average position in Google results; null without impressions'),
};

export const SearchMetrics = z
  .object({
    url: z.string().describe('The article URL the figures are for'),
    period: Period.describe('The last 28 days with final data'),
    previousPeriod: Period.describe('The 28 days before those'),
    ...Totals,
    previous: z.object(Totals).describe('The same figures for previousPeriod'),
    syncedAt: z.string(),
    queries: z
      .array(
        z.object({
          query: z.string(),
          clicks: z.number().int(),
          impressions: z.number().int(),
          ctr: z.number(),
          position: z.number(),
        }),
      )
      .optional()
      .describe('On the full article only: the queries it ranked for in period, most clicks first'),
  })
  .meta({ id: 'SearchMetrics' });

export const searchMetricsField = SearchMetrics.nullable()
  .optional()
  .describe(
    'Present only when the project has a working search-analytics connection; null until a sync has figures for the article',
  );

export const SyncRunView = z
  .object({
    id: z.string(),
    trigger: z.enum(['connect', 'api', 'schedule']),
    status: z.enum(['running', 'completed', 'failed', 'broken']),
    requestedAt: z.string(),
    finishedAt: z.string().nullable(),
    reason: z.string().nullable(),
    period: Period.nullable(),
    previousPeriod: Period.nullable(),
    articles: z.number().int().nullable().describe('Published articles synced'),
    withTraffic: z
      .number()
      .int()
      .nullable()
      .describe('Of those, articles with impressions in period'),
  })
  .meta({ id: 'SearchAnalyticsSync' });

export const SearchAnalyticsIntegration = z
  .object({
    provider: z.literal(SEARCH_PROVIDER),
    property: z.string(),
    urlPattern: z.string(),
    exampleUrl: z.string().describe('An article URL as urlPattern builds it for this project'),
    backfill: z
      .boolean()
      .describe('Whether the first sync recorded the daily figures of the last 16 months'),
    credentials: z
      .union([
        z.object({ type: z.literal('oauth') }),
        z.object({ type: z.literal('service_account'), clientEmail: z.string() }),
      ])
      .describe('Which kind of credential is stored; the credential itself is never returned'),
    status: z.enum(['ok', 'broken']),
    reason: z
      .string()
      .nullable()
      .describe('Why the connection is broken and what to fix; null while ok'),
    connectedAt: z.string(),
    lastSync: SyncRunView.nullable(),
    lastSuccessfulSyncAt: z.string().nullable(),
    nextSyncAt: z
      .string()
      .nullable()
      .describe('When the daily sync is due next; null while broken'),
  })
  .meta({ id: 'SearchAnalyticsIntegration' });
