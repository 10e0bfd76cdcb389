import type { Worker } from '../background.ts';
import { createSafeHttpClient, type SafeHttpClient } from '../integrations/safeHttp/index.ts';
import type { Services } from '../services.ts';
import type { WebhookDoc } from '../../projections/webhooks.ts';
import { attemptDelivery } from './attempt.ts';
import { DELIVERIES, ensureWebhookCollections } from './collections.ts';
import { abandoned, afterAttempt, claimed, interrupted, type DeliveryDoc, type RetryPolicy } from './delivery.ts';
import { webhookStream } from './decide.ts';
import { createHealthTracker, type HealthTracker } from './health.ts';
import { createLane, type Lane } from './lane.ts';
import { parseRetryDelays } from './retrySchedule.ts';
import { webhookSignal } from './signal.ts';
import { createTargetResolver, type EndpointTarget } from './endpointTarget.ts';

export const DISPATCHER_NAME = 'webhooks.dispatcher';
export const CONCURRENCY_PER_ENDPOINT = 8;
const FETCH_BATCH = 200;
const FALLBACK_POLL_MS = 5_000;

export type DispatcherOptions = {
  concurrencyPerEndpoint?: number;
  fallbackPollMs?: number;
  random?: () => number;
  /** Extra CA certificates (PEM) trusted for receivers, beside Node's store and NODE_EXTRA_CA_CERTS. */
  ca?: string;
};

/**
 * Sends due deliveries: one lane per endpoint (its own queue, concurrency cap and connection
 * pool), woken by the outbox as it commits rows and by the API, with a fallback poll for rows
 * written elsewhere. A delivery is claimed (saved in flight) before it is sent; one found claimed
 * at start was cut short by a crash and is sent again: delivery is at least once.
 */
export function webhookDispatcher(options: DispatcherOptions = {}): Worker {
  return {
    name: DISPATCHER_NAME,
    async start(services: Services) {
      await ensureWebhookCollections(services.readStore);
      const { readStore, clock, config, logger } = services;
      const log = logger.child({ worker: DISPATCHER_NAME });
      const policy: RetryPolicy = { delaysMs: parseRetryDelays(config.INKSTREAM_WEBHOOK_RETRY_DELAYS), random: options.random ?? Math.random };
      const concurrency = options.concurrencyPerEndpoint ?? CONCURRENCY_PER_ENDPOINT;
      const targets = createTargetResolver(services);
      const lanes = new Map<string, { lane: Lane; client: SafeHttpClient }>();

      async function abandonAll(endpointId: string, reason: string, except: ReadonlySet<string> = new Set()): Promise<void> {
        for (;;) {
          const page = await readStore.find<DeliveryDoc>(DELIVERIES, { filter: { queue: endpointId }, limit: 200 });
          const waiting = page.items.filter((doc) => !except.has(doc.id));
          for (const doc of waiting) await readStore.save(DELIVERIES, abandoned(doc, reason, clock.nowMs()));
          if (waiting.length === 0 || page.nextCursor === null) return;
        }
      }

      async function disable(target: Extract<EndpointTarget, { usable: true }>, reason: 'gone' | 'failing', doc: DeliveryDoc): Promise<void> {
        const detail = reason === 'gone'
          ? 'The endpoint answered 410 Gone.'
          : 'Every delivery attempt failed for 5 days.';
        targets.markDisabled(target.id, `The endpoint was disabled: ${detail}`, clock.nowMs());
        await services.execute(webhookStream, target.id, { type: 'DisableEndpoint', reason, detail, at: clock.now() }, {
          accountId: target.accountId, actor: { kind: 'system', worker: DISPATCHER_NAME },
          correlationId: doc.id, requestId: doc.id, commandId: `webhook-disable:${target.id}:${target.enabledAtMs}`,
        });
        log.warn({ endpointId: target.id, reason }, 'webhook endpoint disabled');
      }

      function laneFor(endpointId: string): Lane {
        const existing = lanes.get(endpointId);
        if (existing) return existing.lane;
        const client = createSafeHttpClient({
          allowPrivateAddresses: config.INKSTREAM_ALLOW_PRIVATE_URLS, ca: options.ca, userAgent: 'Inkstream-Webhooks/0.1',
          connectionsPerOrigin: concurrency, timeoutMs: config.INKSTREAM_WEBHOOK_TIMEOUT_MS, maxRedirects: 0,
        });
        const health: HealthTracker = createHealthTracker(readStore, endpointId);
        const inFlight = new Set<string>();
        let target: EndpointTarget = { usable: false, reason: 'not resolved yet' };

        const lane = createLane({
          concurrency, batchSize: FETCH_BATCH, nowMs: () => clock.nowMs(),
          async fetch(limit) {
            target = await targets.resolve(endpointId);
            if (!target.usable) {
              await abandonAll(endpointId, target.reason, inFlight);
              return [];
            }
            return (await readStore.find<DeliveryDoc>(DELIVERIES, { filter: { queue: endpointId }, sort: { field: 'due', direction: 'asc' }, limit })).items;
          },
          async deliver(doc, signal) {
            if (!target.usable) return doc;
            const sendTo = target;
            inFlight.add(doc.id);
            try {
              let current = doc.inFlightSince ? interrupted(doc, clock.nowMs()) : doc;
              current = claimed(current, clock.nowMs());
              await readStore.save(DELIVERIES, current);
              const outcome = await attemptDelivery({
                client, target: sendTo, eventId: doc.eventId, body: doc.body, nowMs: clock.nowMs(),
                timeoutMs: config.INKSTREAM_WEBHOOK_TIMEOUT_MS, signal,
              });
              const saved = afterAttempt(current, outcome, policy, clock.nowMs());
              await readStore.save(DELIVERIES, saved);
              let disabledNow = false;
              if (outcome.ok) {
                await health.succeeded();
              } else if (outcome.gone) {
                disabledNow = true;
                await disable(sendTo, 'gone', doc);
              } else if (await health.failed(clock.nowMs(), sendTo.enabledAtMs)) {
                disabledNow = true;
                await disable(sendTo, 'failing', doc);
              }
              if (disabledNow) lane.wake(); // its fetch now finds the endpoint disabled and settles what waits
              return saved;
            } finally {
              inFlight.delete(doc.id);
            }
          },
          onError: (error) => log.error({ err: error, endpointId }, 'webhook lane failed; retrying'),
        });
        lanes.set(endpointId, { lane, client });
        return lane;
      }

      const unsubscribe = webhookSignal(services).subscribe((endpointIds) => { for (const id of endpointIds) laneFor(id).wake(); });

      async function poll(filter: { enabled: true } | undefined): Promise<void> {
        let cursor: string | undefined;
        do {
          const page = await readStore.find<WebhookDoc>('webhooks', { filter, limit: 200, cursor });
          for (const doc of page.items) laneFor(doc.id).wake();
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
      }
      const pollSafely = (filter: { enabled: true } | undefined) => poll(filter).catch((error) => log.error({ err: error }, 'webhook poll failed'));
      // At start every endpoint's lane looks once (claimed rows of a crashed run, rows of endpoints disabled meanwhile).
      void pollSafely(undefined);
      const interval = setInterval(() => void pollSafely({ enabled: true }), options.fallbackPollMs ?? FALLBACK_POLL_MS);
      interval.unref();

      return {
        async stop() {
          clearInterval(interval);
          unsubscribe();
          await Promise.all([...lanes.values()].map(({ lane }) => lane.stop()));
          await Promise.all([...lanes.values()].map(({ client }) => client.close().catch(() => undefined)));
        },
      };
    },
  };
}
