import type { z } from 'zod';
import {
  ARTICLE_SEARCH_METRICS_COLLECTION,
  type ArticleSearchMetricsDoc,
} from '../../../projections/articleSearchMetrics.ts';
import {
  SEARCH_ANALYTICS_COLLECTION,
  type SearchAnalyticsDoc,
} from '../../../projections/searchAnalytics.ts';
import type { Platform } from '../../platform.ts';
import type { SearchMetrics } from './schemas.ts';

export type SearchMetricsView = z.infer<typeof SearchMetrics>;

function present(doc: ArticleSearchMetricsDoc, withQueries: boolean): SearchMetricsView {
  const { url, period, previousPeriod, current, previous, syncedAt, queries } = doc;
  return {
    url,
    period,
    previousPeriod,
    ...current,
    previous,
    syncedAt,
    ...(withQueries ? { queries } : {}),
  };
}

/**
 * The latest figures of these articles, or null when the project has no working connection (no
 * connection, or a broken one): the articles then carry no `searchMetrics` at all. Figures synced
 * for another property (before the connection moved) are not shown as this one's.
 */
export async function searchMetricsOf(
  platform: Platform,
  projectId: string,
  articleIds: readonly string[],
  options: { queries: boolean },
): Promise<Map<string, SearchMetricsView | null> | null> {
  const connection = await platform.readStore.get<SearchAnalyticsDoc>(
    SEARCH_ANALYTICS_COLLECTION,
    projectId,
  );
  if (!connection || connection.status !== 'ok') return null;
  const docs = articleIds.length
    ? await platform.readStore.getMany<ArticleSearchMetricsDoc>(
        ARTICLE_SEARCH_METRICS_COLLECTION,
        articleIds,
      )
    : [];
  const byId = new Map(
    docs.filter((doc) => doc.property === connection.property).map((doc) => [doc.id, doc]),
  );
  return new Map(
    articleIds.map((id) => {
      const doc = byId.get(id);
      return [id, doc ? present(doc, options.queries) : null];
    }),
  );
}

/** The item with `searchMetrics` when the project has a working connection, unchanged otherwise. */
export function withSearchMetrics<T extends object>(
  item: T,
  metrics: Map<string, SearchMetricsView | null> | null,
  articleId: string,
): T & { searchMetrics?: SearchMetricsView | null } {
  return metrics ? { ...item, searchMetrics: metrics.get(articleId) ?? null } : item;
}
