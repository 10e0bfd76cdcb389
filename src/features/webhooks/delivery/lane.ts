import { dueMsOf } from '../../../readstore/dueKey.ts';
import type { DeliveryDoc } from './delivery.ts';

/**
 * One endpoint's queue. Its deliveries are fetched in due order and sent at most `concurrency`
 * at a time, so a slow or dead receiver only ever holds its own slots: other endpoints have
 * their own lanes (and their own connections). Order within a lane is best effort: sends start
 * in event order but overlap, and a retry waits while newer deliveries go ahead.
 */
export type Lane = {
  /** New or changed deliveries may be waiting: fetch now. */
  wake(): void;
  /** Deliveries just committed for this endpoint: queued without reading them back when there is room. */
  offer(docs: readonly DeliveryDoc[]): void;
  /** Stops sending; in-flight attempts are aborted and left claimed, to be retried on the next start. */
  stop(): Promise<void>;
};

export type LaneOptions = {
  concurrency: number;
  batchSize: number;
  nowMs(): number;
  /** Waiting deliveries of this endpoint, in due order. */
  fetch(limit: number): Promise<DeliveryDoc[]>;
  /** Makes one attempt and returns the delivery as saved afterwards. */
  deliver(doc: DeliveryDoc, signal: AbortSignal): Promise<DeliveryDoc>;
  onError(error: unknown): void;
  retryAfterErrorMs?: number;
};

/** Offered deliveries are held in memory up to this many; beyond, they wait in the store. */
const MAX_BUFFERED = 500;

export function createLane(options: LaneOptions): Lane {
  const { concurrency, batchSize, nowMs } = options;
  const retryAfterErrorMs = options.retryAfterErrorMs ?? 1000;
  const buffer: DeliveryDoc[] = [];
  const known = new Set<string>(); // buffered or in flight: a fetch must not take them twice
  const running = new Set<Promise<void>>();
  const abort = new AbortController();
  let inFlight = 0;
  let fetching = false;
  let fetchAgain = false;
  let moreWaiting = false;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let stopped = false;
  let fetchedOnce = false;

  function wakeAt(atMs: number): void {
    if (stopped || atMs >= timerAt) return;
    if (timer) clearTimeout(timer);
    timerAt = atMs;
    timer = setTimeout(
      () => {
        timer = null;
        timerAt = Number.POSITIVE_INFINITY;
        void refill();
      },
      Math.max(0, atMs - nowMs()),
    );
    timer.unref();
  }

  async function refill(): Promise<void> {
    if (stopped) return;
    if (fetching) {
      fetchAgain = true;
      return;
    }
    fetching = true;
    try {
      do {
        fetchAgain = false;
        const limit = known.size + batchSize;
        const rows = await options.fetch(limit);
        if (stopped) return;
        fetchedOnce = true;
        moreWaiting = rows.length >= limit;
        accept(rows);
        pump();
      } while (fetchAgain && !stopped);
    } catch (error) {
      options.onError(error);
      wakeAt(nowMs() + retryAfterErrorMs);
    } finally {
      fetching = false;
    }
  }

  function pump(): void {
    while (!stopped && inFlight < concurrency && buffer.length > 0) {
      const doc = buffer.shift()!;
      inFlight += 1;
      const sending: Promise<void> = options
        .deliver(doc, abort.signal)
        .then(
          (saved) => {
            if (saved.queue !== null && saved.due !== null) wakeAt(dueMsOf(saved.due));
          },
          (error) => {
            if (!stopped) {
              options.onError(error);
              wakeAt(nowMs() + retryAfterErrorMs);
            }
          },
        )
        .finally(() => {
          running.delete(sending);
          known.delete(doc.id);
          inFlight -= 1;
          if (buffer.length < concurrency && moreWaiting) void refill();
          pump();
        });
      running.add(sending);
    }
  }

  /** Keeps the buffer in due order; new rows are usually due after everything buffered, and simply go last. */
  function insert(doc: DeliveryDoc & { due: string }): void {
    let low = 0;
    let high = buffer.length;
    if (high > 0 && buffer[high - 1].due! > doc.due) {
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (buffer[middle].due! <= doc.due) low = middle + 1;
        else high = middle;
      }
    } else {
      low = high;
    }
    buffer.splice(low, 0, doc);
  }

  function accept(docs: readonly DeliveryDoc[]): void {
    const now = nowMs();
    for (const doc of docs) {
      if (known.has(doc.id) || doc.due === null) continue;
      const due = dueMsOf(doc.due);
      if (due > now) {
        wakeAt(due);
        continue;
      }
      known.add(doc.id);
      insert(doc as DeliveryDoc & { due: string });
    }
  }

  return {
    offer(docs) {
      if (stopped) return;
      // Until a first fetch the lane has not looked at its endpoint; while one runs, its result decides.
      if (!fetchedOnce || fetching || moreWaiting || buffer.length + docs.length > MAX_BUFFERED) {
        this.wake();
        return;
      }
      accept(docs);
      pump();
    },
    wake() {
      if (fetching) {
        fetchAgain = true;
        return;
      }
      // Enough is buffered to keep every slot busy: what was added is fetched when the buffer runs low.
      if (buffer.length >= concurrency) {
        moreWaiting = true;
        return;
      }
      void refill();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      abort.abort();
      await Promise.allSettled([...running]);
    },
  };
}
