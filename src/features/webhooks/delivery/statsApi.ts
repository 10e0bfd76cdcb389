import { z } from 'zod';
import { route } from '../../../http/route.ts';
import { ATTEMPT_STATS, ensureWebhookCollections } from '../collections.ts';
import { ownedWebhook, WebhookId } from '../endpoints/owned.ts';
import { HOUR_MS, type AttemptStatsDoc } from './attemptStats.ts';

/** Each window's span and bucket size, in hours: hourly for a day, six-hourly for a week. */
const WINDOWS = {
  '24h': { hours: 24, bucketHours: 1 },
  '7d': { hours: 168, bucketHours: 6 },
} as const;

const Counts = { succeeded: z.number().int(), failed: z.number().int() };
const StatsBody = z
  .object({
    window: z.enum(['24h', '7d']),
    bucketHours: z.number().int(),
    from: z.string().describe('Start of the first bucket'),
    to: z.string().describe('End of the last bucket (it holds the current hour)'),
    buckets: z
      .array(z.object({ at: z.string().describe('Start of the bucket'), ...Counts }))
      .describe('Oldest first, one per bucket, empty ones included'),
    totals: z.object(Counts),
  })
  .meta({ id: 'WebhookDeliveryStats' });

export const statsRoutes = [
  route({
    method: 'get',
    path: '/webhooks/:id/stats',
    tag: 'Webhooks',
    summary:
      'Delivery attempts of an endpoint that succeeded and failed, per hour over 24 hours or per 6 hours over 7 days',
    params: z.object({ id: WebhookId }),
    query: z.object({ window: z.enum(['24h', '7d']).default('24h') }),
    responses: { 200: z.object({ stats: StatsBody }) },
    errors: [404],
    async handle(input) {
      const { params, query, platform } = input;
      await ownedWebhook(input);
      await ensureWebhookCollections(platform.readStore);
      const { hours, bucketHours } = WINDOWS[query.window];
      const bucketMs = bucketHours * HOUR_MS;
      const count = hours / bucketHours;
      const lastStart = Math.floor(platform.clock.nowMs() / bucketMs) * bucketMs;
      const firstStart = lastStart - (count - 1) * bucketMs;
      const buckets = Array.from({ length: count }, (_, index) => ({
        at: new Date(firstStart + index * bucketMs).toISOString(),
        succeeded: 0,
        failed: 0,
      }));
      // One row per hour with attempts, newest first: the window holds at most `hours` of them.
      const { items } = await platform.readStore.find<AttemptStatsDoc>(ATTEMPT_STATS, {
        filter: { endpointId: params.id },
        sort: { field: 'hour', direction: 'desc' },
        limit: hours,
      });
      for (const row of items) {
        const index = Math.floor((Date.parse(row.hour) - firstStart) / bucketMs);
        if (index < 0 || index >= count) continue;
        buckets[index].succeeded += row.succeeded;
        buckets[index].failed += row.failed;
      }
      const totals = buckets.reduce(
        (sum, bucket) => ({
          succeeded: sum.succeeded + bucket.succeeded,
          failed: sum.failed + bucket.failed,
        }),
        { succeeded: 0, failed: 0 },
      );
      return {
        status: 200,
        body: {
          stats: {
            window: query.window,
            bucketHours,
            from: buckets[0].at,
            to: new Date(lastStart + bucketMs).toISOString(),
            buckets,
            totals,
          },
        },
      };
    },
  }),
];
