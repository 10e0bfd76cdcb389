import { ARTICLE_STATUSES } from '../src/domain/articles/article.ts';
import { defineTally } from '../src/readstore/tally.ts';

/** How many of each project's articles are in each pipeline state, counted in the commit that writes the articles. */
export const projectArticleCounts = defineTally({
  name: 'projectArticleCounts',
  collection: 'project_article_counts',
  source: 'articles',
  groupBy: 'projectId',
  countBy: 'status',
  values: ARTICLE_STATUSES,
});
