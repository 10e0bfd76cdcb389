import type { Logger } from 'pino';
import type { StoredEvent } from '../eventstore/port.ts';

export type StreamWindowOptions = {
  /** Events handled at once. */
  slots: number;
  /** Events taken past the checkpoint and not yet finished, at most: a backlog waits in the log, not in memory. */
  lookAhead: number;
  handle(event: StoredEvent): Promise<void>;
  /** Who the event's work is for (a project): free slots go round-robin between lanes. */
  laneOf(event: StoredEvent): string | Promise<string>;
  /** Called with the low-water mark each time it moves: every event up to it is done or skipped. */
  saveCheckpoint(position: bigint): Promise<void>;
  logger: Logger;
  /** Wait before an event whose handler threw is tried again (its stream waits; other streams go on). */
  retryDelayMs?(failures: number): number;
};

export type StreamWindow = {
  /** Takes the events (log order) it has not seen; returns once there is room to look further ahead. */
  admit(events: readonly StoredEvent[], handles: (event: StoredEvent) => boolean): Promise<void>;
  /** Starts nothing more, waits for what runs, saves the checkpoint. Events not started are delivered again. */
  close(): Promise<void>;
};

type Entry = {
  event: StoredEvent;
  stream: string;
  seenBefore: bigint | null;
  done: boolean;
  failures: number;
};
type StreamState = { lane: string; queue: Entry[]; busy: boolean };

const defaultRetryDelayMs = (failures: number) => Math.min(100 * 2 ** (failures - 1), 30_000);

/**
 * Runs a consumer's events without head-of-line blocking: an event starts as soon as a slot is
 * free and its stream is not busy, whatever else still runs; a stream's events run one after
 * another in log order; slots go round-robin between lanes (projects), so one project's backlog
 * does not starve another's single event. The checkpoint is the low-water mark, so a crash
 * delivers again only what was not finished (handlers check their stream's state first).
 */
export function createStreamWindow(options: StreamWindowOptions): StreamWindow {
  const { slots, lookAhead, logger } = options;
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
  const entries: Entry[] = []; // taken and not yet below the low-water mark, in log order
  const streams = new Map<string, StreamState>();
  const readyByLane = new Map<string, string[]>(); // a lane is in `ring` while it has ready streams
  const ring: string[] = [];
  const running = new Set<Promise<void>>();
  const retryTimers = new Set<NodeJS.Timeout>();
  let seenThrough: bigint | null = null;
  let savedThrough: bigint | null = null;
  let saving: Promise<void> = Promise.resolve();
  let closed = false;
  let roomWaiters: (() => void)[] = [];

  function markReady(stream: string, state: StreamState): void {
    const ready = readyByLane.get(state.lane);
    if (ready) {
      ready.push(stream);
      return;
    }
    readyByLane.set(state.lane, [stream]);
    ring.push(state.lane);
  }

  function pump(): void {
    while (!closed && running.size < slots && ring.length > 0) {
      const lane = ring.shift()!;
      const ready = readyByLane.get(lane)!;
      const stream = ready.shift()!;
      if (ready.length > 0) ring.push(lane);
      else readyByLane.delete(lane);
      start(stream, streams.get(stream)!);
    }
  }

  function start(stream: string, state: StreamState): void {
    const entry = state.queue.shift()!;
    state.busy = true;
    const run = options
      .handle(entry.event)
      .then(
        () => finished(entry, state),
        (error: unknown) => failed(entry, state, error),
      )
      .finally(() => {
        running.delete(run);
        pump();
      });
    running.add(run);
  }

  function finished(entry: Entry, state: StreamState): void {
    entry.done = true;
    state.busy = false;
    if (state.queue.length > 0) markReady(entry.stream, state);
    else streams.delete(entry.stream);
    moveLowWaterMark();
  }

  function failed(entry: Entry, state: StreamState, error: unknown): void {
    entry.failures += 1;
    const delayMs = retryDelayMs(entry.failures);
    logger.error(
      { err: error, eventId: entry.event.id, stream: entry.stream, retryInMs: delayMs },
      'pipeline step failed; its stream waits and tries it again',
    );
    const timer = setTimeout(() => {
      retryTimers.delete(timer);
      state.queue.unshift(entry);
      state.busy = false;
      markReady(entry.stream, state);
      pump();
    }, delayMs);
    timer.unref?.();
    retryTimers.add(timer);
  }

  function moveLowWaterMark(): void {
    let removed = 0;
    while (removed < entries.length && entries[removed].done) removed++;
    if (removed > 0) entries.splice(0, removed);
    const lowWater = entries.length > 0 ? entries[0].seenBefore : seenThrough;
    if (lowWater !== null && (savedThrough === null || lowWater > savedThrough)) {
      savedThrough = lowWater;
      saving = saving
        .then(() => options.saveCheckpoint(lowWater))
        .catch((error: unknown) => {
          logger.error({ err: error }, 'could not save the checkpoint; the next one covers it');
        });
    }
    if (entries.length < lookAhead && roomWaiters.length > 0) {
      const waiters = roomWaiters;
      roomWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  return {
    async admit(events, handles) {
      for (const event of events) {
        if (closed) return;
        if (seenThrough !== null && event.position <= seenThrough) continue; // delivered again after a read error
        if (handles(event)) {
          while (entries.length >= lookAhead && !closed)
            await new Promise<void>((resolve) => roomWaiters.push(resolve));
          if (closed) return;
          const lane = await options.laneOf(event);
          const entry: Entry = {
            event,
            stream: event.stream,
            seenBefore: seenThrough,
            done: false,
            failures: 0,
          };
          entries.push(entry);
          let state = streams.get(entry.stream);
          if (!state) streams.set(entry.stream, (state = { lane, queue: [], busy: false }));
          state.queue.push(entry);
          if (!state.busy && state.queue.length === 1) markReady(entry.stream, state);
          pump(); // at once: the look-ahead may be full before the batch ends, and only finished work makes room
        }
        seenThrough = event.position;
      }
      moveLowWaterMark();
      pump();
    },
    async close() {
      closed = true;
      for (const timer of retryTimers) clearTimeout(timer);
      retryTimers.clear();
      for (const wake of roomWaiters.splice(0)) wake();
      while (running.size > 0) await Promise.allSettled([...running]);
      await saving;
    },
  };
}
