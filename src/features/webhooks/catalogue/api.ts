import { z } from 'zod';
import { route } from '../../../http/route.ts';
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../../../domain/webhooks/eventTypes.ts';
import { EVENT_EXAMPLES } from './examples.ts';
import type { CatalogueEventType } from './payloadSchemas.ts';

const DESCRIPTIONS: Record<CatalogueEventType, string> = {
  'article.status_changed':
    'An article moved through the pipeline (queued, researching, writing, draft, publishing, pr_open, merged, closed, failed). data is the article at that moment, with previousStatus.',
  'article.published':
    'An article was merged into the repository (or pushed directly). data is the article as published.',
  'article.revised':
    'A revision landed (asked through the API or a pull-request comment). data is the article after it, with revision: a summary and the size of the change.',
  'topics.suggested':
    'A topic-research run finished: the topics it suggested, or status failed with the reason.',
  'brand.crawled':
    'The site crawl finished: the brand profile as saved and the pages read, or status failed with the reason.',
  [TEST_EVENT_TYPE]:
    'Sent only by POST /webhooks/:id/test, to that endpoint. Cannot be subscribed to.',
};

const EventTypeBody = z
  .object({
    type: z.string(),
    description: z.string(),
    subscribable: z
      .boolean()
      .describe('Whether an endpoint can list it in events (webhook.test is sent only on request)'),
    example: z
      .object({
        id: z.string(),
        type: z.string(),
        createdAt: z.string(),
        data: z.record(z.string(), z.unknown()),
      })
      .describe('A whole envelope as delivered'),
  })
  .meta({ id: 'WebhookEventType' });

const TYPES: readonly CatalogueEventType[] = [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE];

const CATALOGUE = TYPES.map((type) => ({
  type,
  description: DESCRIPTIONS[type],
  subscribable: type !== TEST_EVENT_TYPE,
  example: {
    id: 'evt_01kf0g6a00c5m3x8v2q7r9t4wz',
    type,
    createdAt: '2026-01-15T09:30:00.000Z',
    data: EVENT_EXAMPLES[type],
  },
}));

export const catalogueRoutes = [
  route({
    method: 'get',
    path: '/webhooks/event-types',
    tag: 'Webhooks',
    summary: 'The event catalogue: every event type with a description and an example delivery',
    responses: { 200: z.object({ eventTypes: z.array(EventTypeBody) }) },
    async handle() {
      return { status: 200, body: { eventTypes: CATALOGUE } };
    },
  }),
];
