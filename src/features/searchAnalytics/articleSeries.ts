import { z } from 'zod';
import type { ArticleDoc } from '../../../projections/articles.ts';
import {
  SEARCH_ANALYTICS_COLLECTION,
  type SearchAnalyticsDoc,
} from '../../../projections/searchAnalytics.ts';
import {
  ARTICLE_SEARCH_SERIES_COLLECTION,
  type ArticleSearchSeriesDoc,
} from '../../../projections/articleSearchSeries.ts';
import { AppError } from '../../core/errors.ts';
import { route } from '../../http/route.ts';
import { ownedDoc } from '../../http/resources.ts';
import { idOf } from '../../http/schemas.ts';

const SeriesPoint = z
  .object({
    syncedAt: z.string(),
    periodStart: z.string(),
    periodEnd: z.string(),
    clicks: z.number().int(),
    impressions: z.number().int(),
    ctr: z.number().describe('clicks / impressions, 0 to 1'),
    position: z.number().nullable().describe('Average position; null without impressions'),
  })
  .meta({ id: 'SearchMetricsPoint' });

const Series = z
  .object({
    property: z.string(),
    url: z
      .string()
      .nullable()
      .describe('The article URL of the latest point; null before the first sync'),
    points: z
      .array(SeriesPoint)
      .describe('One point per sync, oldest first: the totals of the 28 days ending at periodEnd'),
  })
  .meta({ id: 'SearchMetricsSeries' });

/**
 * An article's search figures over time, for a chart: the syncs recorded on its stream
 * (`ArticleSearchMetricsUpdated`, the newest SEARCH_SERIES_POINTS, kept in their own read model),
 * under the project's current property only, as the article's `searchMetrics` shows only the latest.
 */
export const articleSearchSeriesRoute = route({
  method: 'get',
  path: '/articles/:id/search-metrics',
  tag: 'Integrations',
  summary:
    "The article's Search Console figures over time: one point per sync (28-day totals), oldest first",
  params: z.object({ id: idOf('art') }),
  responses: { 200: z.object({ searchMetrics: Series }) },
  errors: [404],
  async handle({ params, auth, platform }) {
    const doc = await ownedDoc<ArticleDoc>(
      platform.readStore,
      'articles',
      params.id,
      auth,
      'article',
    );
    const connection = await platform.readStore.get<SearchAnalyticsDoc>(
      SEARCH_ANALYTICS_COLLECTION,
      doc.projectId,
    );
    if (!connection || connection.status !== 'ok') {
      throw new AppError(
        'not_found',
        `Project ${doc.projectId} has no working search-analytics connection; connect one with PUT /api/v1/projects/${doc.projectId}/integrations/search-analytics.`,
      );
    }
    const series = await platform.readStore.get<ArticleSearchSeriesDoc>(
      ARTICLE_SEARCH_SERIES_COLLECTION,
      doc.id,
    );
    const syncs = (series?.points ?? []).filter((point) => point.property === connection.property);
    const points = syncs.map(({ property: _property, url: _url, ...point }) => point);
    return {
      status: 200,
      body: {
        searchMetrics: { property: connection.property, url: syncs.at(-1)?.url ?? null, points },
      },
    };
  },
});
