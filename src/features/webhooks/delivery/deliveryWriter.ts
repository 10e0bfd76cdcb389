import type { ReadModelWrite, ReadStore } from '../../../readstore/port.ts';

/**
 * Every claim and every outcome is stored before the dispatcher goes on, but the writes all lanes
 * make in the same turn of the event loop share one transaction: at thousands of deliveries a
 * second a commit per write would cost more than the HTTP requests themselves. Every write is
 * guarded (a delivery's `rev`, a slot's sequence), so the order within a batch does not matter.
 */
export function createDeliveryWriter(readStore: ReadStore) {
  let pending: ReadModelWrite[] = [];
  let flushing: Promise<void> | null = null;

  function flush(): Promise<void> {
    flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const batch = pending;
      pending = [];
      flushing = null;
      await readStore.commit(batch);
    });
    return flushing;
  }

  return {
    /** Resolves once the writes are stored. */
    write(...writes: ReadModelWrite[]): Promise<void> {
      pending.push(...writes);
      return flush();
    },
  };
}

export type DeliveryWriter = ReturnType<typeof createDeliveryWriter>;
