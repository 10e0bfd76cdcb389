import { applyProjections, PROJECTIONS_CONSUMER } from './projectionConsumer.ts';
import type { ConsumerHandle } from './runner.ts';
import type { EventStore } from '../eventstore/port.ts';
import type { Projection } from '../readstore/projection.ts';
import type { ReadStore } from '../readstore/port.ts';

/**
 * Read-your-writes: before answering, a request waits (bounded) until the read models have
 * reached the head of the log it saw, so a GET after a POST shows the POST's effect. In a process
 * without a running projection consumer (the CLI) it brings the read models up to date itself.
 */
export type ReadModels = {
  /** Waits until the read models reach `upTo` (default: the log's head now). */
  catchUp(timeoutMs: number, upTo?: bigint): Promise<boolean>;
  attach(consumer: ConsumerHandle): void;
};

export function createReadModels(
  eventStore: EventStore,
  readStore: ReadStore,
  projections: readonly Projection[],
): ReadModels {
  let consumer: ConsumerHandle | null = null;

  async function applyDirectly(): Promise<void> {
    for (;;) {
      const after = (await readStore.getCheckpoint(PROJECTIONS_CONSUMER)) ?? -1n;
      const events = await eventStore.readAll({ after, maxCount: 1000 });
      if (events.length === 0) return;
      await applyProjections(projections, readStore, events, PROJECTIONS_CONSUMER, eventStore);
    }
  }

  return {
    attach(handle) {
      consumer = handle;
    },
    async catchUp(timeoutMs, upTo) {
      if (!consumer || !consumer.isRunning()) {
        await applyDirectly();
        return true;
      }
      return consumer.waitFor(upTo ?? (await eventStore.headPosition()), timeoutMs);
    },
  };
}
