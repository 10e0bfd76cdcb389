import { z } from 'zod';
import { AppError } from '../../../core/errors.ts';
import { timeOfId } from '../../../core/ids.ts';
import { route } from '../../../http/route.ts';
import { idOf } from '../../../http/schemas.ts';
import { encodeCursor } from '../../../readstore/cursor.ts';
import { ensureWebhookCollections, PUBLIC_EVENTS, type FeedDoc } from '../collections.ts';
import { WEBHOOK_RETENTION_MS } from '../retention.ts';
import { EventType, presentEvent, PublicEventBody } from '../endpoints/schemas.ts';

export const eventRoutes = [
  route({
    method: 'get',
    path: '/events',
    tag: 'Webhooks',
    summary:
      "The account's public event feed, oldest first: the same envelopes webhooks carry. Poll with after=<nextCursor> to catch up",
    query: z.object({
      after: idOf('evt')
        .optional()
        .describe('The id of the last event you processed; omit to start at the beginning'),
      type: EventType.optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50),
    }),
    errors: [410],
    responses: {
      200: z.object({
        events: z.array(PublicEventBody),
        nextCursor: z
          .string()
          .nullable()
          .describe(
            'Pass as `after` next time: the last event returned (or your `after` when there was nothing new)',
          ),
        hasMore: z.boolean(),
      }),
    },
    async handle({ query, auth, platform }) {
      await ensureWebhookCollections(platform.readStore);
      let cursor: string | undefined;
      if (query.after) {
        const from = await platform.readStore.get<FeedDoc>(PUBLIC_EVENTS, query.after);
        if (!from && timeOfId(query.after) < platform.clock.nowMs() - WEBHOOK_RETENTION_MS) {
          throw new AppError(
            'cursor_expired',
            `The event ${query.after} is older than the ${WEBHOOK_RETENTION_MS / 86_400_000} days the feed keeps, and the events after it up to the oldest kept are gone. ` +
              'Start again without after (from the oldest event kept), and read the current state from the other endpoints to cover the gap.',
          );
        }
        if (!from || from.accountId !== auth.accountId) {
          throw new AppError(
            'validation_failed',
            `Invalid request query: after: no event ${query.after} in this account's feed.`,
            {
              details: [{ path: 'query.after', message: 'not an event of this feed' }],
            },
          );
        }
        cursor = encodeCursor({ key: from.seq, id: from.id });
      }
      const page = await platform.readStore.find<FeedDoc>(PUBLIC_EVENTS, {
        filter: { accountId: auth.accountId, ...(query.type ? { type: query.type } : {}) },
        sort: { field: 'seq', direction: 'asc' },
        limit: query.limit,
        cursor,
      });
      const last = page.items[page.items.length - 1];
      return {
        status: 200,
        body: {
          events: page.items.map((doc) => presentEvent(doc.body)),
          nextCursor: last?.id ?? query.after ?? null,
          hasMore: page.nextCursor !== null,
        },
      };
    },
  }),
];
