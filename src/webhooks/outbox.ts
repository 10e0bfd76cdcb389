import { eventHandlerConsumer } from '../consumers/define.ts';
import type { ConsumerDefinition } from '../consumers/runner.ts';
import type { EventStore } from '../eventstore/port.ts';
import type { ReadModelWrite, ReadStore } from '../readstore/port.ts';
import { DELIVERIES, ensureWebhookCollections, PUBLIC_EVENTS } from './collections.ts';
import { deliveryIdFor, newDelivery } from './delivery.ts';
import { WEBHOOK_CATEGORY, WEBHOOK_ENDPOINT_EVENT_TYPES } from './endpoint.ts';
import { PUBLIC_EVENT_CATEGORIES, PUBLIC_EVENT_SOURCES } from './publicEvents.ts';
import { publicEventsFor } from './publicEvents.ts';
import { createEndpointRegistry } from './registry.ts';
import type { WebhookSignal } from './signal.ts';

export const OUTBOX_CONSUMER = 'webhooks.outbox';

/**
 * The outbox: for every public event, one feed row and one delivery per endpoint that wants it,
 * all inserted (if absent, under ids derived from the event and the endpoint) in the same
 * transaction as the consumer's checkpoint. A crash before the commit redoes the event; after
 * it, the event is never read again: no delivery is lost and none is doubled.
 */
export function webhookOutbox(deps: { eventStore: EventStore; readStore: ReadStore; signal: WebhookSignal; nowMs(): number }): ConsumerDefinition {
  const { eventStore, readStore, signal } = deps;
  const registry = createEndpointRegistry();
  const touched = new Set<string>();
  let ready: Promise<void> | null = null;

  // The registry holds every endpoint event up to the checkpoint; the consumer feeds it the rest in order.
  async function load(): Promise<void> {
    await ensureWebhookCollections(readStore);
    const checkpoint = (await readStore.getCheckpoint(OUTBOX_CONSUMER)) ?? -1n;
    let after = -1n;
    while (after < checkpoint) {
      const events = await eventStore.readAll({ after, maxCount: 1000, categories: [WEBHOOK_CATEGORY] });
      if (events.length === 0) break;
      for (const event of events) if (event.position <= checkpoint) registry.apply(event);
      after = events[events.length - 1].position;
    }
  }

  const inner = eventHandlerConsumer({
    name: OUTBOX_CONSUMER,
    categories: [...PUBLIC_EVENT_CATEGORIES, WEBHOOK_CATEGORY],
    types: [...PUBLIC_EVENT_SOURCES, ...WEBHOOK_ENDPOINT_EVENT_TYPES],
    async handle(event) {
      ready ??= load().catch((error) => { ready = null; throw error; });
      await ready;
      if (event.stream.startsWith(`${WEBHOOK_CATEGORY}-`)) {
        registry.apply(event);
        return [];
      }
      const writes: ReadModelWrite[] = [];
      const nowMs = deps.nowMs();
      for (const outgoing of await publicEventsFor(eventStore, event)) {
        const { accountId, seq, envelope, body } = outgoing;
        writes.push({
          kind: 'insert_if_absent', collection: PUBLIC_EVENTS, id: envelope.id,
          doc: { id: envelope.id, accountId, type: envelope.type, seq, createdAt: envelope.createdAt, body },
        });
        for (const endpointId of registry.matching(accountId, envelope.type)) {
          const id = deliveryIdFor(envelope.id, endpointId, envelope.createdAt);
          const doc = newDelivery({ id, accountId, endpointId, eventId: envelope.id, eventType: envelope.type, body, seq, nowMs });
          writes.push({ kind: 'insert_if_absent', collection: DELIVERIES, id, doc });
          touched.add(endpointId);
        }
      }
      return writes;
    },
  }, readStore);

  return {
    ...inner,
    async handleBatch(events) {
      try {
        await inner.handleBatch(events);
      } finally {
        // After the commits: the dispatcher's lanes find the rows they are woken for.
        const endpointIds = [...touched];
        touched.clear();
        signal.notify(endpointIds);
      }
    },
  };
}
