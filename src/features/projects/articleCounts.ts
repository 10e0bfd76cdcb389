import { z } from 'zod';
import { ARTICLE_CATEGORY, ARTICLE_STATUSES, type ArticleStatus } from '../../domain/articles/article.ts';
import type { ConsumerDefinition } from '../../consumers/runner.ts';
import { positionToText } from '../../core/positions.ts';
import type { Platform } from '../../platform.ts';
import { collectionsDeclaredOnce } from '../../readstore/ensureOnce.ts';
import type { ReadModelWrite, ReadStore } from '../../readstore/port.ts';
import { ARTICLE_NAMES, type ArticleNameDoc } from '../../../projections/articleNames.ts';

/** How many of a project's articles are in each pipeline state. */
export type ArticleCounts = Record<ArticleStatus, number>;

export const ArticleCountsBody = z.object({
  queued: z.number().int(), researching: z.number().int(), writing: z.number().int(), draft: z.number().int(),
  publishing: z.number().int(), pr_open: z.number().int(), merged: z.number().int(), closed: z.number().int(), failed: z.number().int(),
}).describe('How many of the project\'s articles are in each state').meta({ id: 'ArticleCounts' });

/** One document per project that has articles: its counts, read with the project list in one key lookup. */
export const ARTICLE_COUNTS = 'project_article_counts';
type ArticleCountsDoc = { id: string; counts: ArticleCounts };
const ensureArticleCounts = collectionsDeclaredOnce([{ name: ARTICLE_COUNTS, indexes: [] }]);

const CONSUMER = 'projects.articleCounts';

export const noArticles = (): ArticleCounts =>
  Object.fromEntries(ARTICLE_STATUSES.map((status) => [status, 0])) as ArticleCounts;

/** The counts of these projects (all zero for a project without articles), in one read. */
export async function articleCountsOf(readStore: ReadStore, projectIds: readonly string[]): Promise<Map<string, ArticleCounts>> {
  await ensureArticleCounts(readStore);
  const found = await readStore.getMany<ArticleCountsDoc>(ARTICLE_COUNTS, projectIds);
  const byId = new Map(found.map((doc) => [doc.id, { ...noArticles(), ...doc.counts }]));
  return new Map(projectIds.map((id) => [id, byId.get(id) ?? noArticles()]));
}

/**
 * Keeps each project's counts as its articles move: after a batch of article events has reached
 * the articles read model, the projects they touched are counted again there (one indexed count
 * per state). A recount is the truth whatever was delivered before, so a crash or a replay cannot
 * leave a count off by one; and the project list reads the counts instead of counting per card.
 */
export function articleCountsConsumer(platform: Pick<Platform, 'readStore' | 'readModels' | 'config'>): ConsumerDefinition {
  const { readStore } = platform;
  return {
    name: CONSUMER,
    categories: [ARTICLE_CATEGORY],
    batchSize: 500,
    async handleBatch(events) {
      const last = events[events.length - 1].position;
      if (!await platform.readModels.catchUp(platform.config.INKSTREAM_READ_WAIT_MS, last)) {
        throw new Error('the articles read model has not reached these events yet; counting again shortly');
      }
      await ensureArticleCounts(readStore);
      const articleIds = [...new Set(events.map((event) => event.stream.slice(ARTICLE_CATEGORY.length + 1)))];
      // Which projects: from the slim names read model, not the article documents that carry their MDX twice.
      const articles = await readStore.getMany<ArticleNameDoc>(ARTICLE_NAMES, articleIds);
      const projectIds = new Set(articles.map((article) => article.projectId));
      const writes: ReadModelWrite[] = [];
      for (const projectId of projectIds) {
        const counts = noArticles();
        const perStatus = await Promise.all(ARTICLE_STATUSES.map((status) => readStore.count('articles', { projectId, status })));
        ARTICLE_STATUSES.forEach((status, index) => { counts[status] = perStatus[index]; });
        writes.push({ kind: 'put', collection: ARTICLE_COUNTS, id: projectId, doc: { id: projectId, counts, _position: positionToText(last) }, position: last });
      }
      await readStore.commit(writes, { consumer: CONSUMER, position: last });
    },
  };
}
