import type { StoredEvent } from '../eventstore/port.ts';
import { createProjectionFold } from '../readstore/projectionFold.ts';
import type { ReadStore } from '../readstore/port.ts';
import type { Projection } from '../readstore/projection.ts';
import type { ConsumerDefinition } from './runner.ts';

export const PROJECTIONS_CONSUMER = 'projections';

/**
 * Applies a batch of events to every projection: loads the touched documents once, folds the
 * batch in memory, and commits all changed documents with the checkpoint in one store commit.
 */
export async function applyProjections(
  projections: readonly Projection[], readStore: ReadStore, events: readonly StoredEvent[], consumer: string,
): Promise<void> {
  if (events.length === 0) return;
  const fold = createProjectionFold(projections, readStore);
  await fold.apply(events);
  await fold.flush(consumer);
}

export function projectionConsumer(projections: readonly Projection[], readStore: ReadStore, name = PROJECTIONS_CONSUMER): ConsumerDefinition {
  // The read models cover nearly every stream category, so one pass over the whole log (each
  // projection picks its own categories) is cheaper than a query per category.
  return {
    name,
    batchSize: 1000,
    handleBatch: (events) => applyProjections(projections, readStore, events, name),
  };
}
