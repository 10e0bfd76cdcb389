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

export function eventHandlerConsumer(handler: EventHandler, readStore: ReadStore): ConsumerDefinition {
  const types = new Set(handler.types);
  return {
    name: handler.name,
    categories: handler.categories,
    batchSize: 100,
    async handleBatch(events) {
      let unsaved: bigint | null = null;
      for (const event of events) {
        if (!types.has(event.type)) { unsaved = event.position; continue; }
        const writes = (await handler.handle(event)) ?? [];
        await readStore.commit(writes, { consumer: handler.name, position: event.position });
        unsaved = null;
      }
      if (unsaved !== null) await readStore.commit([], { consumer: handler.name, position: unsaved });
    },
  };
}
