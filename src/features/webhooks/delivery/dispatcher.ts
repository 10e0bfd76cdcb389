import type { Worker } from '../../../consumers/worker.ts';
import { createLimiter } from '../../../core/limiter.ts';
import { createSafeHttpClient, type SafeHttpClient } from '../../../integrations/safeHttp/index.ts';
import type { Platform } from '../../../platform.ts';
import type { WebhookDoc } from '../../../../projections/webhooks.ts';
import { attemptDelivery, WEBHOOK_USER_AGENT } from './attempt.ts';
import { createBodyCache } from './bodies.ts';
import { DELIVERIES, ensureWebhookCollections } from '../collections.ts';
import { webhookStream } from '../../../domain/webhooks/decide.ts';
import {
  abandoned,
  afterAttempt,
  deliveryWrite,
  interrupted,
  type DeliveryDoc,
  type RetryPolicy,
} from './delivery.ts';
import { createDeliveryWriter } from './deliveryWriter.ts';
import { createTargetResolver, type EndpointTarget } from '../endpoints/endpointTarget.ts';
import { createAttemptStats } from './attemptStats.ts';
import { createHealthTracker } from './health.ts';
import { CONCURRENCY_PER_ENDPOINT, createInFlightSlots } from './inFlight.ts';
import { createLane, type Lane } from './lane.ts';
import { parseRetryDelays } from './retrySchedule.ts';
import { webhookSignal } from '../signal.ts';

export const DISPATCHER_NAME = 'webhooks.dispatcher';
const FETCH_BATCH = 200;
const FALLBACK_POLL_MS = 5_000;
const TARGET_FRESH_MS = 1_000;

type Usable = Extract<EndpointTarget, { usable: true }>;

/**
 * Sends due deliveries: one lane per endpoint (its own queue, 8 slots and its own connection
 * pool), woken by the outbox as it commits rows and by the API, with a fallback poll for rows
 * written elsewhere. A delivery is marked in flight (its slot claimed) before it is sent; a slot
 * found claimed at start was cut short by a crash, and its delivery is sent again: at least once.
 */
export function webhookDispatcher(): Worker {
  return {
    name: DISPATCHER_NAME,
    async start(platform: Platform) {
      await ensureWebhookCollections(platform.readStore);
      const { readStore, clock, config, logger } = platform;
      const log = logger.child({ worker: DISPATCHER_NAME });
      const policy: RetryPolicy = {
        delaysMs: parseRetryDelays(config.INKSTREAM_WEBHOOK_RETRY_DELAYS),
        random: Math.random,
      };
      const targets = createTargetResolver(platform);
      const bodies = createBodyCache(readStore);
      const writer = createDeliveryWriter(readStore);
      const slots = createInFlightSlots(readStore);
      const lanes = new Map<string, { lane: Lane; client: SafeHttpClient }>();
      // Endpoints on one receiver origin share its turns, so many endpoints cannot multiply the load on one host.
      const origins = createLimiter({
        concurrency: config.INKSTREAM_WEBHOOK_CONCURRENCY_PER_ORIGIN,
      });

      // Attempts a crash cut short: recorded as interrupted and due again now, before any lane starts.
      for (const row of await slots.recover()) {
        const endpointId = row.endpointId;
        const slot = Number(row.id.slice(endpointId.length + 1));
        const doc = await readStore.get<DeliveryDoc>(DELIVERIES, row.deliveryId!);
        const recovered =
          doc && doc.queue !== null
            ? [deliveryWrite(interrupted(doc, row.since!, clock.nowMs()))]
            : [];
        await readStore.commit([...recovered, slots.release(endpointId, slot)]);
      }

      async function abandonAll(
        endpointId: string,
        reason: string,
        except: ReadonlySet<string>,
      ): Promise<void> {
        for (;;) {
          const page = await readStore.find<DeliveryDoc>(DELIVERIES, {
            filter: { queue: endpointId },
            limit: 200,
          });
          const waiting = page.items.filter((doc) => !except.has(doc.id));
          await readStore.commit(
            waiting.map((doc) => deliveryWrite(abandoned(doc, reason, clock.nowMs()))),
          );
          if (waiting.length === 0 || page.nextCursor === null) return;
        }
      }

      async function disable(
        target: Usable,
        reason: 'gone' | 'failing',
        doc: DeliveryDoc,
      ): Promise<void> {
        const detail =
          reason === 'gone'
            ? 'The endpoint answered 410 Gone.'
            : 'Every delivery attempt failed for 5 days.';
        targets.markDisabled(target.id, `The endpoint was disabled: ${detail}`, clock.nowMs());
        await platform.commands.execute(
          webhookStream,
          target.id,
          { type: 'DisableEndpoint', reason, detail, at: clock.now() },
          {
            accountId: target.accountId,
            actor: { kind: 'system', worker: DISPATCHER_NAME },
            correlationId: doc.id,
            requestId: doc.id,
            commandId: `webhook-disable:${target.id}:${target.enabledAtMs}`,
          },
        );
        log.warn({ endpointId: target.id, reason }, 'webhook endpoint disabled');
      }

      function laneFor(endpointId: string): Lane {
        const existing = lanes.get(endpointId);
        if (existing) return existing.lane;
        const client = createSafeHttpClient({
          destinations: platform.destinations,
          userAgent: WEBHOOK_USER_AGENT,
          connectionsPerOrigin: CONCURRENCY_PER_ENDPOINT,
          timeoutMs: config.INKSTREAM_WEBHOOK_TIMEOUT_MS,
          maxRedirects: 0,
          originLimiter: origins,
        });
        const health = createHealthTracker(readStore, endpointId);
        const stats = createAttemptStats(readStore, endpointId);
        const freeSlots = Array.from(
          { length: CONCURRENCY_PER_ENDPOINT },
          (_, slot) => CONCURRENCY_PER_ENDPOINT - 1 - slot,
        );
        const sending = new Set<string>();
        let target: EndpointTarget = { usable: false, reason: 'not resolved yet' };
        let resolvedAt = 0;
        const resolve = async () => {
          target = await targets.resolve(endpointId);
          resolvedAt = Date.now();
          return target;
        };

        async function afterOutcome(
          sendTo: Usable,
          doc: DeliveryDoc,
          outcome: { ok: boolean; gone: boolean },
        ): Promise<void> {
          if (outcome.ok) return health.succeeded();
          const reason = outcome.gone
            ? 'gone'
            : (await health.failed(clock.nowMs(), sendTo.enabledAtMs))
              ? 'failing'
              : null;
          if (reason === null) return;
          await disable(sendTo, reason, doc);
          lane.wake(); // its fetch now finds the endpoint disabled and settles what waits
        }

        const lane = createLane({
          concurrency: CONCURRENCY_PER_ENDPOINT,
          batchSize: FETCH_BATCH,
          nowMs: () => clock.nowMs(),
          async fetch(limit) {
            if (!(await resolve()).usable) {
              await abandonAll(
                endpointId,
                (target as Extract<EndpointTarget, { usable: false }>).reason,
                sending,
              );
              return [];
            }
            const { items } = await readStore.find<DeliveryDoc>(DELIVERIES, {
              filter: { queue: endpointId },
              sort: { field: 'due', direction: 'asc' },
              limit,
            });
            await bodies.prefetch(items);
            return items;
          },
          async deliver(doc, signal) {
            // Offered rows are sent without a fetch: look at the endpoint again now and then (a PATCH may have disabled it).
            if (Date.now() - resolvedAt > TARGET_FRESH_MS) await resolve();
            if (!target.usable) {
              lane.wake();
              return doc;
            }
            const sendTo = target;
            const slot = freeSlots.pop()!;
            sending.add(doc.id);
            try {
              const body = await bodies.bodyOf(doc);
              await writer.write(slots.claim(endpointId, slot, doc.id, clock.now()));
              const outcome = await attemptDelivery({
                client,
                target: sendTo,
                eventId: doc.eventId,
                body,
                nowMs: clock.nowMs(),
                timeoutMs: config.INKSTREAM_WEBHOOK_TIMEOUT_MS,
                signal,
              });
              const saved = afterAttempt(doc, outcome, policy, clock.nowMs());
              const counted = await stats.record(Date.parse(outcome.attempt.at), outcome.ok);
              await writer.write(deliveryWrite(saved), slots.release(endpointId, slot), counted);
              await afterOutcome(sendTo, doc, outcome);
              return saved;
            } finally {
              sending.delete(doc.id);
              freeSlots.push(slot);
            }
          },
          onError: (error) =>
            log.error({ err: error, endpointId }, 'webhook lane failed; retrying'),
        });
        lanes.set(endpointId, { lane, client });
        return lane;
      }

      const unsubscribe = webhookSignal(platform).subscribe({
        wake(endpointIds) {
          for (const id of endpointIds) laneFor(id).wake();
        },
        offer(deliveries) {
          const byEndpoint = Map.groupBy(deliveries, (doc) => doc.endpointId);
          for (const [endpointId, docs] of byEndpoint) laneFor(endpointId).offer(docs);
        },
      });

      async function poll(filter: { enabled: true } | undefined): Promise<void> {
        let cursor: string | undefined;
        do {
          const page = await readStore.find<WebhookDoc>('webhooks', { filter, limit: 200, cursor });
          for (const doc of page.items) laneFor(doc.id).wake();
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      const pollSafely = (filter: { enabled: true } | undefined) =>
        poll(filter).catch((error) => log.error({ err: error }, 'webhook poll failed'));
      // At start every endpoint's lane looks once (deliveries of a crashed run, of endpoints disabled meanwhile).
      void pollSafely(undefined);
      const interval = setInterval(() => void pollSafely({ enabled: true }), FALLBACK_POLL_MS);
      interval.unref();

      return {
        async stop() {
          clearInterval(interval);
          unsubscribe();
          await Promise.all([...lanes.values()].map(({ lane }) => lane.stop()));
          await Promise.all(
            [...lanes.values()].map(({ client }) => client.close().catch(() => undefined)),
          );
        },
      };
    },
  };
}
