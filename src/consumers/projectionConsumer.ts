import { positionFromText, positionToText } from '../core/positions.ts';
import { streamCategory, type StoredEvent } from '../eventstore/port.ts';
import type { Doc, ReadModelWrite, ReadStore } from '../readstore/port.ts';
import { POSITION_FIELD, type Projection } from '../readstore/projection.ts';
import type { ConsumerDefinition } from './runner.ts';

export const PROJECTIONS_CONSUMER = 'projections';

/**
 * Applies a batch of events to every projection: loads the touched documents once, folds the
 * batch in memory, and commits all changed documents with the checkpoint in one store commit.
 */
export async function applyProjections(
  projections: readonly Projection[], readStore: ReadStore, events: readonly StoredEvent[], consumer: string,
): Promise<void> {
  const writes: ReadModelWrite[] = [];
  for (const projection of projections) {
    const categories = new Set(projection.categories);
    const relevant = events.filter((event) => categories.has(streamCategory(event.stream)));
    if (relevant.length === 0) continue;
    const ids = [...new Set(relevant.map((event) => projection.documentId(event)).filter((id): id is string => id !== null))];
    const docs = new Map<string, Doc | null>();
    for (const doc of await readStore.getMany(projection.collection, ids)) docs.set(doc.id, doc);
    const touched = new Map<string, bigint>();
    for (const event of relevant) {
      const id = projection.documentId(event);
      if (id === null) continue;
      const current = docs.get(id) ?? null;
      const applied = current?.[POSITION_FIELD];
      if (typeof applied === 'string' && positionFromText(applied) >= event.position) continue;
      const next = projection.evolve(current, event);
      if (next === current) continue;
      docs.set(id, next && { ...next, [POSITION_FIELD]: positionToText(event.position) });
      touched.set(id, event.position);
    }
    for (const [id, position] of touched) {
      writes.push({ kind: 'put', collection: projection.collection, id, doc: docs.get(id) ?? null, position });
    }
  }
  await readStore.commit(writes, { consumer, position: events[events.length - 1].position });
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
