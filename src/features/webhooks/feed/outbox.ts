import type { ConsumerDefinition } from '../../../consumers/runner.ts';
import type { EventStore, StoredEvent } from '../../../eventstore/port.ts';
import type { ReadModelWrite, ReadStore } from '../../../readstore/port.ts';
import { DELIVERIES, ensureWebhookCollections, PUBLIC_EVENTS } from '../collections.ts';
import { deliveryIdFor, newDelivery, type DeliveryDoc } from '../delivery/delivery.ts';
import {
  WEBHOOK_CATEGORY,
  WEBHOOK_ENDPOINT_EVENT_TYPES,
} from '../../../domain/webhooks/endpoint.ts';
import { createArticleFolds } from './articlePayloads.ts';
import { PUBLIC_EVENT_CATEGORIES, PUBLIC_EVENT_SOURCES, publicEventsFor } from './publicEvents.ts';
import { createEndpointRegistry } from '../endpoints/registry.ts';
import type { WebhookSignal } from '../signal.ts';

export const OUTBOX_CONSUMER = 'webhooks.outbox';
const BATCH_SIZE = 200;

/**
 * The outbox: for every public event, one feed row (its exact bytes) and one delivery per
 * endpoint that wants it, all inserted (if absent, under ids derived from the event and the
 * endpoint) in one transaction with the consumer's checkpoint. A crash before the commit redoes
 * the batch; after it, the batch is never read again: no delivery is lost and none is doubled.
 * One commit per batch rather than per event keeps a burst of events cheap to fan out.
 */
export function webhookOutbox(deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  signal: WebhookSignal;
  nowMs(): number;
}): ConsumerDefinition {
  const { eventStore, readStore, signal } = deps;
  let registry = createEndpointRegistry();
  const sources = new Set(PUBLIC_EVENT_SOURCES);
  const endpointEvents = new Set<string>(WEBHOOK_ENDPOINT_EVENT_TYPES);
  let ready: Promise<void> | null = null;
  let committed = -1n;
  const folds = createArticleFolds();

  // The registry holds every endpoint event up to the checkpoint; the batches feed it the rest in order.
  async function load(): Promise<void> {
    await ensureWebhookCollections(readStore);
    const checkpoint = (await readStore.getCheckpoint(OUTBOX_CONSUMER)) ?? -1n;
    let after = -1n;
    while (after < checkpoint) {
      const events = await eventStore.readAll({
        after,
        maxCount: 1000,
        categories: [WEBHOOK_CATEGORY],
      });
      if (events.length === 0) break;
      for (const event of events) if (event.position <= checkpoint) registry.apply(event);
      after = events[events.length - 1].position;
    }
  }

  async function fanOut(
    event: StoredEvent,
    writes: ReadModelWrite[],
    created: DeliveryDoc[],
    nowMs: number,
  ): Promise<void> {
    for (const { accountId, seq, envelope, body } of await publicEventsFor(
      eventStore,
      event,
      folds,
    )) {
      writes.push({
        kind: 'insert_if_absent',
        collection: PUBLIC_EVENTS,
        id: envelope.id,
        doc: {
          id: envelope.id,
          accountId,
          type: envelope.type,
          seq,
          createdAt: envelope.createdAt,
          body,
        },
      });
      for (const endpointId of registry.matching(accountId, envelope.type)) {
        const id = deliveryIdFor(envelope.id, endpointId, envelope.createdAt);
        const doc = newDelivery({
          id,
          accountId,
          endpointId,
          eventId: envelope.id,
          eventType: envelope.type,
          body: null,
          seq,
          nowMs,
        });
        writes.push({ kind: 'insert_if_absent', collection: DELIVERIES, id, doc });
        created.push(doc);
      }
    }
  }

  return {
    name: OUTBOX_CONSUMER,
    categories: [...PUBLIC_EVENT_CATEGORIES, WEBHOOK_CATEGORY],
    batchSize: BATCH_SIZE,
    async handleBatch(events) {
      const writes: ReadModelWrite[] = [];
      const created: DeliveryDoc[] = [];
      try {
        // Started again from an older checkpoint (a lost and regained lease): rebuild the registry up to it.
        if (events[0].position <= committed) {
          registry = createEndpointRegistry();
          ready = null;
        }
        ready ??= load();
        await ready;
        const nowMs = deps.nowMs();
        // Endpoint events change the registry as the batch goes, so each event sees the endpoints of its position.
        for (const event of events) {
          if (endpointEvents.has(event.type)) registry.apply(event);
          else if (sources.has(event.type)) await fanOut(event, writes, created, nowMs);
          else if (event.stream.startsWith('article-')) folds.advance(event);
        }
        await readStore.commit(writes, {
          consumer: OUTBOX_CONSUMER,
          position: events[events.length - 1].position,
        });
        committed = events[events.length - 1].position;
      } catch (error) {
        // The runner retries from the checkpoint: the registry must be rebuilt up to it, not kept ahead of it.
        registry = createEndpointRegistry();
        ready = null;
        throw error;
      }
      // After the commit: the lanes take the rows as they were written, without reading them back.
      signal.offer(created);
    },
  };
}
