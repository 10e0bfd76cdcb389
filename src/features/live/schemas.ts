import { z } from 'zod';

/** One change on the live stream: ids and statuses only, never free text from models, pages or people. */
export const LiveChange = z
  .object({
    id: z
      .string()
      .describe(
        "The change's log position; send it back as Last-Event-ID (or ?after=) to resume after it",
      ),
    kind: z.enum(['project', 'crawl', 'topic', 'article']),
    event: z.string().describe('The domain event type, e.g. ArticleDrafted'),
    projectId: z.string(),
    topicId: z.string().optional(),
    articleId: z.string().optional(),
    status: z.string().optional().describe('The new status or state, when the event sets one'),
    at: z.string(),
  })
  .meta({ id: 'LiveChange' });

export type LiveChange = z.infer<typeof LiveChange>;
