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
  read(
    after: bigint,
    categories: readonly string[] | undefined,
    maxCount: number,
    fresh: boolean,
  ): Promise<TailRead>;
  /** About how many bytes of events the tail holds (docs/memory.md). */
  heldBytes(): number;
  /**
   * How many events after `after` the tail holds (a read after it costs no store read), or null
   * when `after` is older than the tail: the events in between are only in the store.
   */
  heldAfter(after: bigint): number | null;
  stop(): void;
};

/** Events read from the log at once to bring the tail up to date. */
const REFRESH_BATCH = 1_000;

/** An event's size, about: its strings' lengths and a little for the rest (an ArticleDrafted is mostly its MDX). */
export function approximateBytes(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 8;
  let bytes = 16;
  if (Array.isArray(value)) for (const item of value) bytes += approximateBytes(item);
  else
    for (const key in value)
      bytes += key.length + approximateBytes((value as Record<string, unknown>)[key]);
  return bytes;
}

/**
 * The newest events of the log, read once for every consumer of the process. After an append
 * each of a dozen consumers would otherwise query the log for the same few events and parse them
 * again; here one read after each append (or poll) serves them all, and this process's own
 * appends need no read at all. Holds every event in (start, head]: at most twice `capacity` events
 * and twice `maxBytes` of them, trimmed back to the newest that fit in both; a reader further
 * behind reads the store.
 */
export async function createLogTail(
  store: EventStore,
  options: { capacity?: number; maxBytes?: number } = {},
): Promise<LogTail> {
  const capacity = options.capacity ?? 10_000;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  let buffer: StoredEvent[] = [];
  let sizes: number[] = [];
  let bytes = 0;
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
      events = await store.readAll({ after: head, maxCount: REFRESH_BATCH });
    } catch (error) {
      stale = true;
      throw error;
    }
    if (events.length === REFRESH_BATCH) stale = true; // more to come: the next read continues
    take(events);
  }

  /** Events that follow on from the head, in log order. */
  function take(events: readonly StoredEvent[]): void {
    if (events.length === 0) return;
    head = events[events.length - 1].position;
    for (const event of events) {
      const size = approximateBytes(event.data) + 200; // the metadata, ids and the object itself
      buffer.push(event);
      sizes.push(size);
      bytes += size;
    }
    if (buffer.length > 2 * capacity || bytes > 2 * maxBytes) trim(); // now and then, not on every append
  }

  /** Keeps the newest events that fit in `capacity` and `maxBytes`. */
  function trim(): void {
    let kept = 0;
    let keptBytes = 0;
    while (
      kept < buffer.length &&
      kept < capacity &&
      keptBytes + sizes[buffer.length - 1 - kept] <= maxBytes
    ) {
      keptBytes += sizes[buffer.length - 1 - kept];
      kept++;
    }
    const dropped = buffer.length - kept;
    if (dropped === 0) return;
    start = buffer[dropped - 1].position;
    buffer = buffer.slice(dropped);
    sizes = sizes.slice(dropped);
    bytes = keptBytes;
  }

  function refreshOnce(): Promise<void> {
    refreshing ??= refresh().finally(() => {
      refreshing = null;
    });
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
      for (
        let index = firstAfter(buffer, after);
        index < buffer.length && events.length < maxCount;
        index++
      ) {
        const event = buffer[index];
        if (!wanted || wanted.has(streamCategory(event.stream))) events.push(event);
      }
      return { events, through: head };
    },
    heldBytes: () => bytes,
    heldAfter: (after) => (after < start ? null : buffer.length - firstAfter(buffer, after)),
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
