import type { ReadStore } from '../../../readstore/port.ts';
import { PUBLIC_EVENTS, type FeedDoc } from '../collections.ts';
import type { DeliveryDoc } from './delivery.ts';

/**
 * The bytes each delivery sends, read from the event feed once for all the endpoints that get the
 * event and kept for a while (most recent first out), so a fan-out reads each body once.
 */
export function createBodyCache(readStore: ReadStore, capacity = 5_000) {
  const cache = new Map<string, string>();

  function remember(id: string, body: string): void {
    cache.delete(id);
    cache.set(id, body);
    if (cache.size > capacity) cache.delete(cache.keys().next().value!);
  }

  return {
    /** Loads, in one read, the bodies a batch of deliveries will need. */
    async prefetch(docs: readonly DeliveryDoc[]): Promise<void> {
      const missing = [
        ...new Set(
          docs
            .filter((doc) => doc.body === null && !cache.has(doc.eventId))
            .map((doc) => doc.eventId),
        ),
      ];
      if (missing.length === 0) return;
      for (const row of await readStore.getMany<FeedDoc>(PUBLIC_EVENTS, missing))
        remember(row.id, row.body);
    },
    async bodyOf(doc: DeliveryDoc): Promise<string> {
      if (doc.body !== null) return doc.body;
      let body = cache.get(doc.eventId);
      if (body === undefined) {
        const row = await readStore.get<FeedDoc>(PUBLIC_EVENTS, doc.eventId);
        if (!row) throw new Error(`delivery ${doc.id}: no feed row for event ${doc.eventId}`);
        body = row.body;
        remember(row.id, body);
      }
      return body;
    },
  };
}

export type BodyCache = ReturnType<typeof createBodyCache>;
