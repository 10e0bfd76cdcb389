import type { StoredEvent } from '../eventstore/port.ts';
import type { ConsumerDefinition } from '../consumers/runner.ts';
import type { ReadStore } from '../readstore/port.ts';

export type PartitionedHandler = {
  name: string;
  categories: readonly string[];
  types: readonly string[];
  /** Streams handled at once; events of one stream are always handled one after another, in order. */
  concurrency: number;
  handle(event: StoredEvent): Promise<void>;
};

/**
 * A process manager whose work is slow (crawls, model calls): the events of a batch are grouped
 * by stream, streams run side by side, and the checkpoint moves past the batch once all of them
 * are done. A crash re-delivers the batch; every handler checks its stream's state first, so
 * what was recorded is not redone.
 */
export function partitionedConsumer(handler: PartitionedHandler, readStore: ReadStore): ConsumerDefinition {
  const types = new Set(handler.types);
  return {
    name: handler.name,
    categories: handler.categories,
    batchSize: 50,
    async handleBatch(events) {
      const byStream = new Map<string, StoredEvent[]>();
      for (const event of events) {
        if (!types.has(event.type)) continue;
        const list = byStream.get(event.stream) ?? [];
        list.push(event);
        byStream.set(event.stream, list);
      }
      const queues = [...byStream.values()];
      const worker = async () => {
        for (let queue = queues.shift(); queue; queue = queues.shift()) {
          for (const event of queue) await handler.handle(event);
        }
      };
      // Settle every stream before failing, so a retried batch never overlaps work still running.
      const results = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(handler.concurrency, queues.length)) }, worker));
      const failed = results.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      await readStore.commit([], { consumer: handler.name, position: events[events.length - 1].position });
    },
  };
}
