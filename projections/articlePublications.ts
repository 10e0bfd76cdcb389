import { ARTICLE_EVENTS, type ArticleEvent } from '../src/domain/articles/article.ts';
import { defineProjection } from '../src/readstore/projection.ts';

/** A refresh of a published article: when it was asked for, and when its pull request was merged. */
export type RefreshRecord = { refreshId: string; requestedAt: string; mergedAt: string | null };

/**
 * When each article was first published and when each of its refreshes was merged (the article
 * read model's `publishedAt` moves with every merge), for the decay rules ("since publication")
 * and the refresh outcomes (docs/decay.md).
 */
export type ArticlePublicationsDoc = {
  id: string;
  accountId: string;
  projectId: string | null;
  firstPublishedAt: string | null;
  refreshes: RefreshRecord[];
};

export const ARTICLE_PUBLICATIONS_COLLECTION = 'article_publications';

export const articlePublications = defineProjection<ArticlePublicationsDoc, ArticleEvent>({
  name: 'articlePublications',
  collection: ARTICLE_PUBLICATIONS_COLLECTION,
  indexes: [],
  categories: ['article'],
  events: ARTICLE_EVENTS,
  documentId: (event) =>
    event.type === 'ArticleQueued' ||
    event.type === 'ArticleMerged' ||
    event.type === 'ArticleRefreshRequested'
      ? String(event.data.articleId)
      : null,
  evolve(doc, event) {
    const current: ArticlePublicationsDoc = doc ?? {
      id: String(event.data.articleId),
      accountId: event.metadata.accountId,
      projectId: null,
      firstPublishedAt: null,
      refreshes: [],
    };
    switch (event.type) {
      case 'ArticleQueued':
        return { ...current, projectId: event.data.projectId };
      case 'ArticleRefreshRequested':
        return {
          ...current,
          refreshes: [
            ...current.refreshes,
            { refreshId: event.data.refreshId, requestedAt: event.data.at, mergedAt: null },
          ],
        };
      case 'ArticleMerged': {
        if (current.firstPublishedAt === null)
          return { ...current, firstPublishedAt: event.data.at };
        const open = current.refreshes.at(-1);
        if (!open || open.mergedAt !== null) return current;
        return {
          ...current,
          refreshes: [...current.refreshes.slice(0, -1), { ...open, mergedAt: event.data.at }],
        };
      }
      default:
        return doc;
    }
  },
});
