import { z } from 'zod';
import type { ArticleDoc } from '../../../projections/articles.ts';
import { present } from '../../http/resources.ts';
import { searchMetricsField } from '../searchAnalytics/schemas.ts';
import { ARTICLE_STATUSES } from '../../domain/articles/article.ts';

const Status = z.enum(ARTICLE_STATUSES);
const Failure = z.object({ step: Status, reason: z.string() }).nullable();

/**
 * A list item: status, PR info and timing. Search metrics join it (as `searchMetrics`) for
 * projects with a search-analytics connection; the item is an object so that field can be added.
 */
export const ArticleSummary = z.object({
  id: z.string(), projectId: z.string(), topicId: z.string(), status: Status,
  title: z.string(), slug: z.string().nullable(), keyword: z.string().nullable(),
  prUrl: z.string().nullable(), prNumber: z.number().int().nullable(), version: z.number().int(), failure: Failure,
  createdAt: z.string(), updatedAt: z.string(), publishedAt: z.string().nullable(),
  searchMetrics: searchMetricsField,
}).meta({ id: 'ArticleSummary' });

const Generation = z.object({
  provider: z.string(), model: z.string().nullable(),
  usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() }),
});
const Neutralised = z.object({
  kind: z.enum(['esm', 'jsx', 'expression', 'invalid']), excerpt: z.string(), field: z.enum(['body', 'title', 'description']),
});
const Cover = z.object({
  title: z.string(),
  palette: z.object({ primary: z.string(), accent: z.string(), background: z.string(), text: z.string() }),
  style: z.object({ mood: z.string(), shapes: z.string(), typography: z.string() }),
});

/** The full article: MDX `content` as committed, and the same split into `frontmatter` and `body`. */
export const ArticleBody = ArticleSummary.extend({
  content: z.string().nullable(), frontmatter: z.record(z.string(), z.unknown()).nullable(), body: z.string().nullable(), wordCount: z.number().int(),
  sources: z.array(z.object({ url: z.string(), title: z.string() })), cover: Cover.nullable(), generation: Generation.nullable(),
  branch: z.string().nullable(), path: z.string().nullable(), publishMode: z.enum(['pr', 'direct']).nullable(),
  pendingRevisions: z.number().int(), lastRevisionSummary: z.string().nullable(),
  revisionFailure: z.object({ revisionId: z.string(), reason: z.string(), at: z.string() }).nullable()
    .describe('Why the latest revision was not applied (the article kept its previous version); null once a later revision applies'),
  neutralised: z.array(Neutralised).describe('Model text MDX would have run (import/export, JSX, expressions), kept in the article as literal text: the draft\'s, then each revision\'s'),
}).meta({ id: 'Article' });

export function presentArticle(doc: ArticleDoc) {
  const { accountId: _accountId, createdMonth: _createdMonth, ...rest } = present(doc);
  return { ...rest, revisionFailure: doc.revisionFailure ?? null, neutralised: doc.neutralised ?? [] };
}

export function presentArticleSummary(doc: ArticleDoc): z.infer<typeof ArticleSummary> {
  const { id, projectId, topicId, status, title, slug, keyword, prUrl, prNumber, version, failure, createdAt, updatedAt, publishedAt } = doc;
  return { id, projectId, topicId, status, title, slug, keyword, prUrl, prNumber, version, failure, createdAt, updatedAt, publishedAt };
}
