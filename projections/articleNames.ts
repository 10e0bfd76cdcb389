import { ARTICLE_EVENTS, type ArticleEvent } from '../src/domain/articles/article.ts';
import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';

/**
 * What an article is called, and whether it was ever published: the few hundred bytes a topic
 * added by hand is compared with (src/features/topics/overlap.ts). The article read model carries
 * the MDX twice (content and body), so reading 200 of those on every POST of a topic made adding
 * topics slower as a project's articles grew.
 */
export type ArticleNameDoc = {
  id: string;
  accountId: string;
  projectId: string;
  title: string;
  slug: string | null;
  path: string | null;
  prUrl: string | null;
  /** Once merged, an article stays on the site while it is refreshed (a refresh PR open or closed). */
  published: boolean;
  publishedAt: string | null;
};

export const ARTICLE_NAMES = 'article_names';

export const articleNames = defineProjection<ArticleNameDoc, ArticleEvent>({
  name: 'articleNames',
  collection: ARTICLE_NAMES,
  // A project's published articles, the newest first.
  indexes: [{ projectId: 1, published: 1, publishedAt: -1 }],
  categories: ['article'],
  events: ARTICLE_EVENTS,
  documentId: (event) => String(event.data.articleId),
  begins: ['ArticleQueued'],
  evolve(doc, event) {
    switch (event.type) {
      case 'ArticleQueued': {
        const { articleId, projectId, title } = event.data;
        return {
          id: articleId,
          accountId: event.metadata.accountId,
          projectId,
          title,
          slug: null,
          path: null,
          prUrl: null,
          published: false,
          publishedAt: null,
        };
      }
      case 'ArticleDrafted':
        return doc && { ...doc, title: event.data.title, slug: event.data.slug };
      case 'ArticlePullRequestOpened':
        return doc && { ...doc, prUrl: event.data.prUrl, path: event.data.path };
      case 'ArticleMerged': {
        const { path, prUrl, at } = event.data;
        return doc && { ...doc, path, prUrl: prUrl ?? doc.prUrl, published: true, publishedAt: at };
      }
      default:
        return doc;
    }
  },
});
