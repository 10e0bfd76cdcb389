import type { EventStore, StoredEvent } from '../eventstore/port.ts';
import { createProjectionFold, type FoldOptions } from '../readstore/projectionFold.ts';
import { catchUpAfterSwap, SWAP_CATCH_UP } from '../readstore/rebuild.ts';
import type { ReadStore } from '../readstore/port.ts';
import type { Projection } from '../readstore/projection.ts';
import type { ConsumerDefinition } from './runner.ts';

export const PROJECTIONS_CONSUMER = 'projections';

/**
 * Applies a batch of events to every projection: loads the touched documents once, folds the
 * batch in memory, and commits all changed documents with the checkpoint in one store commit.
 *
 * An online rebuild's swap leaves a catch-up checkpoint until the events since its build are
 * replayed into the swapped-in collections (rebuild.ts). Documents loaded while it stands may lack
 * an event a replica committed to a replaced collection, and folding a later event on them would
 * store it past that event for good. So after loading and before committing, a batch looks for
 * it: when it stands, the batch is not committed; the catch-up is run here (it is idempotent, and
 * its rebuild may have died) and the batch is folded again from what it left. The swap records the
 * checkpoint before it replaces anything, so a load that saw a replaced collection always finds it.
 */
export async function applyProjections(
  projections: readonly Projection[],
  readStore: ReadStore,
  events: readonly StoredEvent[],
  consumer: string,
  eventStore: EventStore,
  onUnknownEvent?: FoldOptions['onUnknownEvent'],
): Promise<void> {
  if (events.length === 0) return;
  for (;;) {
    const fold = createProjectionFold(projections, readStore, { onUnknownEvent });
    await fold.apply(events);
    if ((await readStore.getCheckpoint(SWAP_CATCH_UP)) === null) return fold.flush(consumer);
    await catchUpAfterSwap(eventStore, readStore, projections);
  }
}

export function projectionConsumer(
  projections: readonly Projection[],
  readStore: ReadStore,
  eventStore: EventStore,
  name = PROJECTIONS_CONSUMER,
  onUnknownEvent?: FoldOptions['onUnknownEvent'],
): ConsumerDefinition {
  // The read models cover nearly every stream category, so one pass over the whole log (each
  // projection picks its own categories) is cheaper than a query per category.
  return {
    name,
    batchSize: 1000,
    handleBatch: (events) =>
      applyProjections(projections, readStore, events, name, eventStore, onUnknownEvent),
  };
}
