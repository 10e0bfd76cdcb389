import { z } from 'zod';
import { ARTICLE_STATUSES } from '../../../domain/articles/article.ts';
import { BrandProfile } from '../../../domain/projects/brand.ts';
import { TOPIC_STATUSES } from '../../../domain/topics/topic.ts';
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../../../domain/webhooks/eventTypes.ts';
import { ArticleBody } from '../../articles/schemas.ts';

/**
 * The `data` of each public event type, as the feed's builders (feed/articlePayloads.ts,
 * feed/projectPayloads.ts) make it. The event catalogue serves them with an example each; the
 * tests parse real payloads from those builders with them, so a builder that changes its shape
 * fails a test instead of leaving the catalogue wrong.
 */
const ArticleEventData = ArticleBody.extend({
  previousStatus: z
    .enum(ARTICLE_STATUSES)
    .nullable()
    .describe('The status the article left; null for queued'),
});

const Revision = z
  .object({
    id: z.string(),
    version: z.number().int(),
    summary: z.string(),
    diff: z.object({
      addedLines: z.number().int(),
      removedLines: z.number().int(),
      addedWords: z.number().int(),
      removedWords: z.number().int(),
    }),
  })
  .strict();

const RunProject = z
  .object({ id: z.string(), name: z.string(), websiteUrl: z.string() })
  .strict()
  .nullable();
const RunOutcome = {
  status: z.enum(['succeeded', 'failed']),
  failureReason: z.string().nullable(),
  projectId: z.string(),
  project: RunProject,
  provider: z.string().nullable(),
  model: z.string().nullable(),
};

const SuggestedTopic = z
  .object({
    id: z.string(),
    title: z.string(),
    keyword: z.string().nullable(),
    brief: z.string().nullable(),
    status: z.enum(TOPIC_STATUSES),
    priority: z.number().int(),
    rationale: z.string().nullable(),
    scheduledFor: z.string().nullable(),
    createdAt: z.string(),
  })
  .strict();

export const EVENT_DATA_SCHEMAS = {
  'article.status_changed': ArticleEventData,
  'article.published': ArticleEventData,
  'article.revised': ArticleEventData.extend({ revision: Revision }),
  'topics.suggested': z
    .object({
      ...RunOutcome,
      runId: z.string(),
      topics: z.array(SuggestedTopic),
      completedAt: z.string(),
    })
    .strict(),
  'brand.crawled': z
    .object({
      ...RunOutcome,
      crawlId: z.string(),
      brand: BrandProfile.nullable(),
      changedParts: z.array(z.string()),
      keptEditedParts: z.array(z.string()),
      pagesCrawled: z.number().int(),
      pages: z.array(z.object({ url: z.string(), title: z.string() }).strict()),
      crawledAt: z.string(),
    })
    .strict(),
  [TEST_EVENT_TYPE]: z.object({ endpointId: z.string(), message: z.string() }).strict(),
} satisfies Record<(typeof WEBHOOK_EVENT_TYPES)[number] | typeof TEST_EVENT_TYPE, z.ZodType>;

export type CatalogueEventType = keyof typeof EVENT_DATA_SCHEMAS;
