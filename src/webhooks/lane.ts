import { dueMsOf, type DeliveryDoc } from './delivery.ts';

/**
 * One endpoint's queue. Its deliveries are fetched in due order and sent at most `concurrency`
 * at a time, so a slow or dead receiver only ever holds its own slots: other endpoints have
 * their own lanes (and their own connections). Order within a lane is best effort: sends start
 * in event order but overlap, and a retry waits while newer deliveries go ahead.
 */
export type Lane = {
  /** New or changed deliveries may be waiting: fetch now. */
  wake(): void;
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

  function wakeAt(atMs: number): void {
    if (stopped || atMs >= timerAt) return;
    if (timer) clearTimeout(timer);
    timerAt = atMs;
    timer = setTimeout(() => { timer = null; timerAt = Number.POSITIVE_INFINITY; void refill(); }, Math.max(0, atMs - nowMs()));
    timer.unref();
  }

  async function refill(): Promise<void> {
    if (stopped) return;
    if (fetching) { fetchAgain = true; return; }
    fetching = true;
    try {
      do {
        fetchAgain = false;
        const limit = known.size + batchSize;
        const rows = await options.fetch(limit);
        if (stopped) return;
        moreWaiting = rows.length >= limit;
        const now = nowMs();
        for (const row of rows) {
          if (known.has(row.id) || row.due === null) continue;
          const due = dueMsOf(row.due);
          if (due > now) { wakeAt(due); break; } // in due order: the rest are later still
          known.add(row.id);
          buffer.push(row);
        }
        buffer.sort((a, b) => (a.due! < b.due! ? -1 : a.due! > b.due! ? 1 : 0));
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
      const sending: Promise<void> = options.deliver(doc, abort.signal).then(
        (saved) => { if (saved.queue !== null && saved.due !== null) wakeAt(dueMsOf(saved.due)); },
        (error) => { if (!stopped) { options.onError(error); wakeAt(nowMs() + retryAfterErrorMs); } },
      ).finally(() => {
        running.delete(sending);
        known.delete(doc.id);
        inFlight -= 1;
        if (buffer.length < concurrency && moreWaiting) void refill();
        pump();
      });
      running.add(sending);
    }
  }

  return {
    wake() {
      if (fetching) { fetchAgain = true; return; }
      // Enough is buffered to keep every slot busy: what was added is fetched when the buffer runs low.
      if (buffer.length >= concurrency) { moreWaiting = true; return; }
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
