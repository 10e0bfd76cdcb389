import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { EventStore } from '../eventstore/port.ts';
import type { ReadStore } from './port.ts';
import type { Projection } from './projection.ts';
import { createProjectionFold } from './projectionFold.ts';

// Small enough that a batch's events die young (a scavenge) instead of being promoted and marked.
export const REBUILD_READ_BATCH = 1_000;
const DOCUMENTS_HELD = 20_000;
/**
 * Documents a rebuild writes a transaction. One transaction per flush held the write lock for
 * seconds on a grown store, and a server on the same file could not renew its lease or project
 * meanwhile. A flush is cut into commits of a few milliseconds, and after each the lock is left
 * free for half as long again, so a waiting writer gets in (`src/readstore/sqlite.ts` tries for
 * the lock on a timer without blocking its event loop).
 */
export const REBUILD_WRITES_PER_COMMIT = 500;
const leaveLockFree = (commitMs: number) => sleep(Math.max(1, commitMs / 2));

export type RebuildOptions = {
  /** The checkpoint the rebuilt read models move. */
  consumer: string;
  /** Only streams of these categories; undefined reads the whole log. */
  categories?: readonly string[];
  /**
   * Called after each batch with the position of its last event and the events replayed so far
   * (a count: positions are not one, on EventStoreDB nor when only some categories are read).
   */
  onProgress?: (position: bigint, events: number) => void;
  /** Bounds the memory a rebuild takes: past this many documents held, they are written and dropped. */
  documentsHeld?: number;
  readBatch?: number;
  /** Stops the replay between two batches (the process is stopping). */
  signal?: AbortSignal;
};

/** The name of the copy of a collection an online rebuild fills. */
export const stagingName = (collection: string): string => `${collection}__next`;

/**
 * Rebuilds the projections' read models beside the ones that keep serving, then swaps them in
 * (together in one transaction on SQLite, one after another on MongoDB): each is replayed from the
 * log into a staged copy (indexes built at the end), which catches up until it has reached the live
 * consumer's checkpoint `live` and is swapped in. The live consumer then carries on from its own
 * checkpoint; the events it applies again are skipped by the position guard. False when stopped
 * by the signal before the swap.
 */
export async function rebuildOnline(
  eventStore: EventStore,
  readStore: ReadStore,
  projections: readonly Projection[],
  options: RebuildOptions & { live: string; versionOf(projection: Projection): string },
): Promise<boolean> {
  const rebuilds = readStore.onlineRebuilds;
  for (const projection of projections)
    await rebuilds.stage(
      projection.collection,
      stagingName(projection.collection),
      options.versionOf(projection),
    );
  const staged = projections.map((projection) => ({
    ...projection,
    collection: stagingName(projection.collection),
  }));
  const pairs = projections.map((projection) => ({
    collection: projection.collection,
    staging: stagingName(projection.collection),
  }));
  // Replayed so far, across the catch-up rounds.
  let reached: Reached = { after: -1n, events: 0 };
  for (;;) {
    const head = await eventStore.headPosition();
    reached = await replay(eventStore, readStore, staged, reached, options);
    // Read to the head: with categories, the last event read may be older than the live checkpoint.
    if (reached.after < head)
      await readStore.commit([], { consumer: options.consumer, position: (reached.after = head) });
    // Build the indexes before the swap, so the first query after it finds them.
    for (const { staging } of pairs) await readStore.count(staging);
    if (options.signal?.aborted) return false;
    if (
      await rebuilds.swapIn(pairs, {
        built: options.consumer,
        live: options.live,
        catchUp: SWAP_CATCH_UP,
      })
    )
      break;
  }
  await catchUpAfterSwap(eventStore, readStore, projections, options);
  return true;
}

/** The checkpoint a swap leaves where its build stopped, until the events since are replayed into the swapped-in collections. */
export const SWAP_CATCH_UP = 'rebuild:catch-up';

/**
 * Where a swap is not one transaction with its check (MongoDB), a replica may have applied an event
 * to an old collection in between, which went with it. So the events after the catch-up checkpoint
 * a swap left are replayed into the projections' collections, then the checkpoint is cleared; guarded
 * puts make what is already there a no-op. Run after each swap, and before each rebuild (with every
 * projection: which were swapped is not known) for a swap whose process died before its catch-up.
 */
export async function catchUpAfterSwap(
  eventStore: EventStore,
  readStore: ReadStore,
  projections: readonly Projection[],
  options: Pick<RebuildOptions, 'categories'> = {},
): Promise<void> {
  const from = await readStore.getCheckpoint(SWAP_CATCH_UP);
  if (from === null) return;
  await replay(
    eventStore,
    readStore,
    projections,
    { after: from, events: 0 },
    { consumer: SWAP_CATCH_UP, categories: options.categories },
  );
  // Several processes may catch up at once (the rebuild, and projecting processes that found the
  // checkpoint): each replays the same events, and the first to finish clears it.
  await readStore.reset([], [SWAP_CATCH_UP]);
}

type Reached = { after: bigint; events: number };

/** Replays the log after `from.after` into the projections' collections; returns the position reached and the events replayed in all. */
async function replay(
  eventStore: EventStore,
  readStore: ReadStore,
  projections: readonly Projection[],
  from: Reached,
  options: RebuildOptions,
): Promise<Reached> {
  let { after, events: replayed } = from;
  const { documentsHeld = DOCUMENTS_HELD, readBatch = REBUILD_READ_BATCH } = options;
  // The documents stay in memory across batches and are written when the bound is reached and at
  // the end, so a document changed by many events is read at most once and written once per flush.
  const fold = createProjectionFold(projections, readStore, {
    writesPerCommit: REBUILD_WRITES_PER_COMMIT,
    pause: leaveLockFree,
  });
  for (;;) {
    // A turn of the event loop between batches: the SQLite stores answer without one, and a
    // rebuild inside the server (an upgrade) would otherwise hold its requests until it ends.
    await nextTurn();
    const events = await eventStore.readAll({
      after,
      maxCount: readBatch,
      categories: options.categories,
    });
    if (events.length === 0 || options.signal?.aborted) break;
    await fold.apply(events);
    if (fold.size > documentsHeld) {
      await fold.flush(options.consumer);
      fold.forget();
    }
    after = events[events.length - 1].position;
    replayed += events.length;
    options.onProgress?.(after, replayed);
  }
  await fold.flush(options.consumer);
  return { after, events: replayed };
}
