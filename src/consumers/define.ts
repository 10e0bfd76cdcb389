import type { StoredEvent } from '../eventstore/port.ts';
import type { ReadModelWrite, ReadStore } from '../readstore/port.ts';
import type { ConsumerDefinition } from './runner.ts';

/**
 * A consumer with side effects (pipeline step, webhook fan-out). It handles one event at a time;
 * the writes it returns are committed together with its checkpoint, so an outbox row and the
 * checkpoint that covers it land in one transaction on the embedded default.
 */
export type EventHandler = {
  name: string;
  categories?: readonly string[];
  types: readonly string[];
  handle(event: StoredEvent): Promise<ReadModelWrite[] | void>;
};

/**
 * Events a consumer only skips move its checkpoint lazily: re-reading a few skipped events after a
 * restart costs nothing, while a write transaction per skipped batch would tax every append.
 */
export const SKIPPED_EVENTS_PER_CHECKPOINT = 1000;

export function eventHandlerConsumer(
  handler: EventHandler,
  readStore: ReadStore,
): ConsumerDefinition {
  const types = new Set(handler.types);
  let skippedSinceSave = 0;
  return {
    name: handler.name,
    categories: handler.categories,
    batchSize: 100,
    async handleBatch(events) {
      let unsaved: bigint | null = null;
      for (const event of events) {
        if (!types.has(event.type)) {
          unsaved = event.position;
          skippedSinceSave++;
          continue;
        }
        const writes = (await handler.handle(event)) ?? [];
        await readStore.commit(writes, { consumer: handler.name, position: event.position });
        unsaved = null;
        skippedSinceSave = 0;
      }
      if (unsaved !== null && skippedSinceSave >= SKIPPED_EVENTS_PER_CHECKPOINT) {
        await readStore.commit([], { consumer: handler.name, position: unsaved });
        skippedSinceSave = 0;
      }
    },
  };
}
