import type { Logger } from 'pino';
import type { EventStore, StoredEvent } from '../eventstore/port.ts';
import type { ReadStore } from '../readstore/port.ts';
import { createLogTail, type LogTail } from './logTail.ts';

/**
 * A consumer reads the global log from its checkpoint, in order, in batches. `handleBatch` must
 * persist the checkpoint (the batch's last position) itself, so that it can do so atomically with
 * its own writes where the store allows.
 */
export type ConsumerDefinition = {
  name: string;
  categories?: readonly string[];
  batchSize?: number;
  handleBatch(events: StoredEvent[]): Promise<void>;
  /** Called as the runner starts, before the first batch (a definition may be started again after a stop). */
  start?(): void;
  /** Called as the runner stops, while a batch may still be handed over; the runner waits for it. */
  stop?(): Promise<void>;
};

export type ConsumerRunnerOptions = {
  store: EventStore;
  readStore: ReadStore;
  logger: Logger;
  /** The process's shared read of the newest events; without one the consumer keeps its own. */
  tail?: LogTail;
  /** Fallback polling for appends made by other processes (the CLI, other replicas). */
  pollIntervalMs?: number;
  maxBackoffMs?: number;
};

export type ConsumerHandle = {
  name: string;
  /** The position up to which this consumer has processed the log (including events it skips). */
  processedThrough(): bigint;
  waitFor(position: bigint, timeoutMs: number): Promise<boolean>;
  isRunning(): boolean;
  lastError(): string | null;
  stop(): Promise<void>;
};

/** Events of other categories a filtered consumer passes over before it records that it has. */
const PASSED_BEFORE_SAVE = 1_000n;

export async function startConsumer(
  definition: ConsumerDefinition,
  options: ConsumerRunnerOptions,
): Promise<ConsumerHandle> {
  const { store, readStore, logger } = options;
  const log = logger.child({ consumer: definition.name });
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const batchSize = definition.batchSize ?? 500;

  definition.start?.();
  let checkpoint = (await readStore.getCheckpoint(definition.name)) ?? -1n;
  let saved = checkpoint;
  let handledAny = false;
  let processed = checkpoint;
  let running = true;
  let error: string | null = null;
  let wake: (() => void) | null = null;
  const waiters = new Set<{ position: bigint; resolve: (ok: boolean) => void }>();

  let appendedSinceRead = false;
  const unsubscribe = store.onAppend(() => {
    appendedSinceRead = true;
    wake?.();
  });
  const ownTail = options.tail ? null : await createLogTail(store);
  const tail = options.tail ?? ownTail!;
  const pause = (ms: number, untilAppend: boolean) =>
    new Promise<void>((resolve) => {
      if (untilAppend && appendedSinceRead) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  const advance = (position: bigint) => {
    if (position <= processed) return;
    processed = position;
    for (const waiter of waiters)
      if (waiter.position <= processed) {
        waiters.delete(waiter);
        waiter.resolve(true);
      }
  };

  const loop = (async () => {
    let backoffMs = 100;
    while (running) {
      try {
        // Woken by a timer or a waiter rather than an append of this process: look at the log itself.
        const fresh = !appendedSinceRead;
        appendedSinceRead = false;
        const { events, through: head } = await tail.read(
          checkpoint,
          definition.categories,
          batchSize,
          fresh,
        );
        if (events.length > 0) {
          await definition.handleBatch(events);
          handledAny = true;
          checkpoint = events[events.length - 1].position;
          advance(checkpoint);
        }
        error = null;
        backoffMs = 100;
        if (events.length < batchSize) {
          // The read saw everything up to the head it followed, so a filtered consumer need not
          // walk again over events of other categories it has already passed.
          if (head > checkpoint) checkpoint = head;
          // Recorded too, now and then: a consumer whose events never come would otherwise read the
          // whole log again at every start (its start-up and memory growing with the log). Only
          // while it has handled nothing in this run: once it has, its own checkpoint (a low-water
          // mark of unfinished work, for the pipeline's) is the one that may move.
          if (!handledAny && checkpoint - saved >= PASSED_BEFORE_SAVE) {
            await readStore.commit([], { consumer: definition.name, position: checkpoint });
            saved = checkpoint;
          }
          advance(head);
          if (running) await pause(pollIntervalMs, true);
          // Let the appends of this turn of the event loop land first: under load one read then
          // takes a burst of events instead of one read per append for every consumer.
          if (running) await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (caught) {
        error = caught instanceof Error ? caught.message : String(caught);
        log.error({ err: caught }, 'consumer failed; retrying from its checkpoint');
        checkpoint =
          (await readStore.getCheckpoint(definition.name).catch(() => checkpoint)) ?? -1n;
        if (running) await pause(backoffMs, false);
        backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
      }
    }
  })();

  return {
    name: definition.name,
    processedThrough: () => processed,
    isRunning: () => running,
    lastError: () => error,
    waitFor(position, timeoutMs) {
      if (position <= processed) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = {
          position,
          resolve: (ok: boolean) => {
            clearTimeout(timer);
            resolve(ok);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          resolve(false);
        }, timeoutMs);
        waiters.add(waiter);
        wake?.();
      });
    },
    async stop() {
      running = false;
      unsubscribe();
      ownTail?.stop();
      wake?.();
      const stopped = definition.stop?.();
      await loop;
      await stopped;
      for (const waiter of waiters) waiter.resolve(false);
      waiters.clear();
    },
  };
}
