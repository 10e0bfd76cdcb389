import { positionFromText, positionToText } from '../core/positions.ts';
import { streamCategory, type StoredEvent } from '../eventstore/port.ts';
import type { Doc, ReadModelWrite, ReadStore } from './port.ts';
import { POSITION_FIELD, type Projection } from './projection.ts';

/** A document as the fold holds it: position is that of the last event that changed it (null: none known). */
type Held = { doc: Doc | null; position: bigint | null; changed: boolean };

type Lane = { projection: Projection; categories: ReadonlySet<string>; held: Map<string, Held> };

export type ProjectionFold = {
  /** Folds the events into the documents in memory, loading from the store only those it does not hold. */
  apply(events: readonly StoredEvent[]): Promise<void>;
  /** Commits every document changed since the last flush, with the checkpoint at the last event applied. */
  flush(consumer: string): Promise<void>;
  /** Documents held in memory. */
  readonly size: number;
  /** Drops the held documents (after a flush): the next events load them again. */
  forget(): void;
};

/**
 * Folds events into read-model documents held in memory between flushes. A replayed event (its
 * position not newer than the document's) is skipped; the store's own position guard still
 * applies on commit. The live consumer flushes and forgets after every batch; a rebuild keeps
 * the documents across batches, so each document is read at most once and written once per flush.
 */
export function createProjectionFold(projections: readonly Projection[], readStore: ReadStore): ProjectionFold {
  const lanes: Lane[] = projections.map((projection) => ({ projection, categories: new Set(projection.categories), held: new Map() }));
  let lastPosition: bigint | null = null;

  async function load(lane: Lane, ids: readonly string[]): Promise<void> {
    for (const id of ids) lane.held.set(id, { doc: null, position: null, changed: false });
    for (const doc of await readStore.getMany(lane.projection.collection, ids)) {
      const applied = doc[POSITION_FIELD];
      lane.held.set(doc.id, { doc, position: typeof applied === 'string' ? positionFromText(applied) : null, changed: false });
    }
  }

  async function applyToLane(lane: Lane, events: readonly StoredEvent[], categories: readonly string[]): Promise<void> {
    const relevant: StoredEvent[] = [];
    const ids: string[] = [];
    const missing = new Set<string>();
    for (let i = 0; i < events.length; i++) {
      if (!lane.categories.has(categories[i])) continue;
      const id = lane.projection.documentId(events[i]);
      if (id === null) continue;
      relevant.push(events[i]);
      ids.push(id);
      if (!lane.held.has(id)) missing.add(id);
    }
    if (missing.size > 0) await load(lane, [...missing]);
    for (let i = 0; i < relevant.length; i++) {
      const event = relevant[i];
      const held = lane.held.get(ids[i])!;
      if (held.position !== null && held.position >= event.position) continue;
      const next = lane.projection.evolve(held.doc, event);
      if (next === held.doc) continue;
      held.doc = next;
      held.position = event.position;
      held.changed = true;
    }
  }

  return {
    async apply(events) {
      if (events.length === 0) return;
      const categories = events.map((event) => streamCategory(event.stream));
      for (const lane of lanes) await applyToLane(lane, events, categories);
      lastPosition = events[events.length - 1].position;
    },

    async flush(consumer) {
      if (lastPosition === null) return;
      const writes: ReadModelWrite[] = [];
      for (const { projection, held } of lanes) {
        for (const [id, entry] of held) {
          if (!entry.changed) continue;
          entry.changed = false;
          const position = entry.position!;
          const doc = entry.doc && { ...entry.doc, [POSITION_FIELD]: positionToText(position) };
          writes.push({ kind: 'put', collection: projection.collection, id, doc, position });
        }
      }
      await readStore.commit(writes, { consumer, position: lastPosition });
    },

    get size() {
      return lanes.reduce((sum, lane) => sum + lane.held.size, 0);
    },

    forget() {
      for (const lane of lanes) lane.held.clear();
    },
  };
}
