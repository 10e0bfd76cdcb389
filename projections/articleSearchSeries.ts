import { ARTICLE_EVENTS, type ArticleEvent } from '../src/domain/articles/article.ts';
import type { PeriodTotals } from '../src/domain/searchAnalytics/metrics.ts';
import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';

/** One sync's 28-day totals of an article, under the property it was read from. */
export type SearchSeriesPoint = PeriodTotals & {
  property: string;
  url: string;
  syncedAt: string;
  periodStart: string;
  periodEnd: string;
};

/** Each article's Search Console figures over time, for GET /articles/:id/search-metrics, oldest first. */
export type ArticleSearchSeriesDoc = {
  id: string;
  accountId: string;
  projectId: string;
  points: SearchSeriesPoint[];
};

export const ARTICLE_SEARCH_SERIES_COLLECTION = 'article_search_series';
/** The newest points kept per article: over a year of daily syncs, a document that stays small. */
export const SEARCH_SERIES_POINTS = 400;

export const articleSearchSeries = defineProjection<ArticleSearchSeriesDoc, ArticleEvent>({
  name: 'articleSearchSeries',
  collection: ARTICLE_SEARCH_SERIES_COLLECTION,
  indexes: [],
  categories: ['article'],
  events: ARTICLE_EVENTS,
  documentId: (event) =>
    event.type === 'ArticleSearchMetricsUpdated' ? String(event.data.articleId) : null,
  evolve(doc, event) {
    if (event.type !== 'ArticleSearchMetricsUpdated') return doc;
    const { articleId, projectId, property, url, period, current, at } = event.data;
    const point: SearchSeriesPoint = {
      property,
      url,
      syncedAt: at,
      periodStart: period.start,
      periodEnd: period.end,
      ...current,
    };
    const points = [...(doc?.points ?? []), point].slice(-SEARCH_SERIES_POINTS);
    return { id: articleId, accountId: event.metadata.accountId, projectId, points };
  },
});
