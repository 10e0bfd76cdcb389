import { z } from 'zod';
import { ARTICLE_STATUSES, type ArticleStatus } from '../../domain/articles/article.ts';
import { TOPIC_STATUSES, type TopicStatus } from '../../domain/topics/topic.ts';
import type { ReadStore } from '../../readstore/port.ts';
import type { TallyDoc } from '../../readstore/tally.ts';
import { projectArticleCounts } from '../../../projections/projectArticleCounts.ts';
import { projectTopicCounts } from '../../../projections/projectTopicCounts.ts';

/** How many of a project's articles are in each pipeline state. */
export type ArticleCounts = Record<ArticleStatus, number>;
/** How many of a project's topics have each status. */
export type TopicCounts = Record<TopicStatus, number>;

const countsBody = <S extends string>(statuses: readonly S[]) =>
  z.object(
    Object.fromEntries(statuses.map((status) => [status, z.number().int()])) as Record<
      S,
      z.ZodNumber
    >,
  );

export const ArticleCountsBody = countsBody(ARTICLE_STATUSES as readonly ArticleStatus[])
  .describe("How many of the project's articles are in each state")
  .meta({ id: 'ArticleCounts' });
export const TopicCountsBody = countsBody(TOPIC_STATUSES)
  .describe("How many of the project's topics have each status")
  .meta({ id: 'TopicCounts' });

const zeros = <S extends string>(statuses: readonly S[]) =>
  Object.fromEntries(statuses.map((status) => [status, 0])) as Record<S, number>;
export const noArticles = (): ArticleCounts => zeros(ARTICLE_STATUSES);
export const noTopics = (): TopicCounts => zeros(TOPIC_STATUSES);

export type ProjectCounts = { articleCounts: ArticleCounts; topicCounts: TopicCounts };
export const noCounts = (): ProjectCounts => ({
  articleCounts: noArticles(),
  topicCounts: noTopics(),
});

/**
 * The counts of these projects (all zero for a project without articles or topics): one read by
 * key of each tally, whatever the number of projects. The tallies are written in the commit that
 * writes the articles and topics (src/readstore/tally.ts), so they agree with the lists.
 */
export async function projectCountsOf(
  readStore: ReadStore,
  projectIds: readonly string[],
): Promise<Map<string, ProjectCounts>> {
  const [articles, topics] = await Promise.all([
    readStore.getMany<TallyDoc>(projectArticleCounts.collection, projectIds),
    readStore.getMany<TallyDoc>(projectTopicCounts.collection, projectIds),
  ]);
  const articlesById = new Map(articles.map((doc) => [doc.id, doc.counts]));
  const topicsById = new Map(topics.map((doc) => [doc.id, doc.counts]));
  return new Map(
    projectIds.map((id) => [
      id,
      {
        articleCounts: { ...noArticles(), ...articlesById.get(id) },
        topicCounts: { ...noTopics(), ...topicsById.get(id) },
      },
    ]),
  );
}
