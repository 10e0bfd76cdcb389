import { ARTICLE_EVENTS, type ArticleEvent } from '../src/domain/articles/article.ts';
import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import type { SearchMetricsSnapshot } from '../src/domain/searchAnalytics/metrics.ts';

/** The latest Search Console figures of each article (one document per article, kept apart from the article read model). */
export type ArticleSearchMetricsDoc = SearchMetricsSnapshot & {
  id: string;
  accountId: string;
  projectId: string;
  syncId: string;
  syncedAt: string;
};

export const ARTICLE_SEARCH_METRICS_COLLECTION = 'article_search_metrics';

export const articleSearchMetrics = defineProjection<ArticleSearchMetricsDoc, ArticleEvent>({
  name: 'articleSearchMetrics',
  collection: ARTICLE_SEARCH_METRICS_COLLECTION,
  indexes: ['projectId'],
  categories: ['article'],
  events: ARTICLE_EVENTS,
  documentId: (event) =>
    event.type === 'ArticleSearchMetricsUpdated' ? String(event.data.articleId) : null,
  evolve(doc, event) {
    if (event.type !== 'ArticleSearchMetricsUpdated') return doc;
    const {
      articleId,
      projectId,
      syncId,
      at,
      property,
      url,
      period,
      previousPeriod,
      current,
      previous,
      queries,
    } = event.data;
    return {
      id: articleId,
      accountId: event.metadata.accountId,
      projectId,
      syncId,
      syncedAt: at,
      property,
      url,
      period,
      previousPeriod,
      current,
      previous,
      queries,
    };
  },
});
