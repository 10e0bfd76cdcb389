import { streamCategory, type EventStore, type StoredEvent } from '../eventstore/port.ts';

export type TailRead = {
  events: StoredEvent[];
  /** Every event up to this position was looked at: with fewer events than asked for, a filtered reader may move its cursor here. */
  through: bigint;
};

export type LogTail = {
  /**
   * Up to `maxCount` events after `after` of these categories (all without). `fresh` looks at the
   * log first even if this process appended nothing since the last look (another process may have).
   */
  read(after: bigint, categories: readonly string[] | undefined, maxCount: number, fresh: boolean): Promise<TailRead>;
  stop(): void;
};

/**
 * The newest events of the log, read once for every consumer of the process. After an append
 * each of a dozen consumers would otherwise query the log for the same few events and parse them
 * again; here one read after each append (or poll) serves them all, and this process's own
 * appends need no read at all. Holds every event in
 * (start, head], between `capacity` and twice that many; a reader further behind reads the store.
 */
export async function createLogTail(store: EventStore, options: { capacity?: number } = {}): Promise<LogTail> {
  const capacity = options.capacity ?? 10_000;
  let buffer: StoredEvent[] = [];
  let head = await store.headPosition();
  let start = head;
  let stale = false;
  let refreshing: Promise<void> | null = null;
  // This process's appends arrive with their events: taken as they are when the store says they
  // follow on from the head, so the tail need not read back what was just written. Anything else
  // (no events at hand, another process's events in between, a read under way) makes the next
  // read look. Positions may have gaps (EventStoreDB's are byte offsets): only `previous` tells.
  const unsubscribe = store.onAppend((_position, appended, previous) => {
    if (stale || refreshing || !appended || previous !== head) {
      stale = true;
      return;
    }
    const events = appended();
    if (events.length === 0) {
      stale = true;
      return;
    }
    take(events);
  });

  async function refresh(): Promise<void> {
    stale = false;
    let events: StoredEvent[];
    try {
      events = await store.readAll({ after: head, maxCount: capacity });
    } catch (error) {
      stale = true;
      throw error;
    }
    if (events.length === capacity) stale = true; // more to come: the next read continues
    take(events);
  }

  /** Events that follow on from the head, in log order. */
  function take(events: readonly StoredEvent[]): void {
    if (events.length === 0) return;
    head = events[events.length - 1].position;
    for (const event of events) buffer.push(event);
    if (buffer.length > 2 * capacity) { // trimmed now and then, not on every append
      const dropped = buffer.length - capacity;
      start = buffer[dropped - 1].position;
      buffer = buffer.slice(dropped);
    }
  }

  function refreshOnce(): Promise<void> {
    refreshing ??= refresh().finally(() => { refreshing = null; });
    return refreshing;
  }

  return {
    async read(after, categories, maxCount, fresh) {
      if (stale || fresh || refreshing) await refreshOnce(); // a read under way may hold what was just appended
      if (after < start || after > head) {
        // Read the head first: the events then read reach at least it.
        const through = await store.headPosition();
        return { events: await store.readAll({ after, maxCount, categories }), through };
      }
      const wanted = categories && new Set(categories);
      const events: StoredEvent[] = [];
      for (let index = firstAfter(buffer, after); index < buffer.length && events.length < maxCount; index++) {
        const event = buffer[index];
        if (!wanted || wanted.has(streamCategory(event.stream))) events.push(event);
      }
      return { events, through: head };
    },
    stop: unsubscribe,
  };
}

/** Index of the first buffered event with a position above `after` (positions ascend). */
function firstAfter(buffer: readonly StoredEvent[], after: bigint): number {
  let low = 0;
  let high = buffer.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (buffer[middle].position <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
