import type { EventStore } from '../eventstore/port.ts';
import type { ReadStore } from './port.ts';
import type { Projection } from './projection.ts';
import { createProjectionFold } from './projectionFold.ts';

// Small enough that a batch's events die young (a scavenge) instead of being promoted and marked.
export const REBUILD_READ_BATCH = 1_000;
const DOCUMENTS_HELD = 20_000;

export type RebuildOptions = {
  /** The checkpoint the rebuilt read models move. */
  consumer: string;
  /** Only streams of these categories; undefined reads the whole log. */
  categories?: readonly string[];
  /** Called after each batch with the position of its last event. */
  onProgress?: (position: bigint) => void;
  /** Bounds the memory a rebuild takes: past this many documents held, they are written and dropped. */
  documentsHeld?: number;
  readBatch?: number;
};

/**
 * Drops the projections' read models and replays the log into them. The documents stay in memory
 * across batches and are written when the memory bound is reached and at the end, so a document
 * changed by many events is read at most once and written once per flush rather than once per batch.
 * The reset defers the secondary indexes; they are built once at the end.
 */
export async function rebuildReadModels(
  eventStore: EventStore, readStore: ReadStore, projections: readonly Projection[], options: RebuildOptions,
): Promise<void> {
  await readStore.reset(projections.map((projection) => projection.collection), [options.consumer]);
  await readStore.ensureCollections(projections.map((projection) => ({ name: projection.collection, indexes: projection.indexes })));
  const { documentsHeld = DOCUMENTS_HELD, readBatch = REBUILD_READ_BATCH } = options;
  const fold = createProjectionFold(projections, readStore);
  let after = -1n;
  for (;;) {
    const events = await eventStore.readAll({ after, maxCount: readBatch, categories: options.categories });
    if (events.length === 0) break;
    await fold.apply(events);
    if (fold.size > documentsHeld) {
      await fold.flush(options.consumer);
      fold.forget();
    }
    after = events[events.length - 1].position;
    options.onProgress?.(after);
  }
  await fold.flush(options.consumer);
  for (const projection of projections) await readStore.count(projection.collection);
}
