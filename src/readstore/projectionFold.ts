import { positionFromText, positionToText } from '../core/positions.ts';
import { streamCategory, type StoredEvent } from '../eventstore/port.ts';
import type { Doc, ReadModelWrite, ReadStore, TallyTarget } from './port.ts';
import { POSITION_FIELD, type Projection } from './projection.ts';
import { recount, touchedGroups } from './tally.ts';

/** A document as the fold holds it: position is that of the last event that changed it (null: none known). */
type Held = { doc: Doc | null; position: bigint | null; changed: boolean };

/**
 * `countedIn`: the tallies that count this lane's documents. `touched`: the documents events reached
 * since the last flush, changed or not, each as it was before (its group may be left), kept only
 * where the store recounts their groups (MongoDB).
 */
type Lane = {
  projection: Projection;
  held: Map<string, Held>;
  begins: ReadonlySet<string>;
  countedIn: TallyTarget[];
  touched: Map<string, Doc | null>;
};

/** One lane's share of a batch: the events that touch its documents, with the id each touches. */
type Share = { lane: Lane; events: StoredEvent[]; ids: string[]; missing: Set<string> };

export type FoldOptions = {
  /**
   * A flush commits at most this many documents a transaction (all in one without it), the
   * checkpoint with the last, and awaits `pause` (given how long the commit took) between two: a
   * rebuild's flush of thousands of documents then never holds the write lock, or the event loop, for long.
   */
  writesPerCommit?: number;
  pause?: (commitMs: number) => Promise<void>;
  /**
   * Told of each event in a read model's streams whose type it does not know (written by a newer
   * release): the event touches none of its documents.
   */
  onUnknownEvent?: (projection: string, type: string) => void;
};

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
export function createProjectionFold(
  projections: readonly Projection[],
  readStore: ReadStore,
  options: FoldOptions = {},
): ProjectionFold {
  const { writesPerCommit = Infinity, pause, onUnknownEvent } = options;
  const lanes: Lane[] = projections.map((projection) => ({
    projection,
    held: new Map(),
    begins: new Set(projection.begins),
    countedIn: [],
    touched: new Map(),
  }));
  const tallies = lanes.flatMap(({ projection }) => {
    if (!projection.tally) return [];
    const source = lanes.find((lane) => lane.projection.name === projection.tally!.source);
    if (!source)
      throw new Error(
        `the read model ${projection.name} counts ${projection.tally.source}'s documents: build them together`,
      );
    const { groupBy, countBy, values } = projection.tally;
    const tally: TallyTarget = { collection: projection.collection, groupBy, countBy, values };
    source.countedIn.push(tally);
    return [{ tally, source }];
  });
  // SQLite moves the counts with each document written, in its transaction; MongoDB cannot, so the
  // groups the batch touched are counted again after the documents are written (tally.ts).
  const recounting = !readStore.talliesInCommit && tallies.length > 0;
  const lanesByCategory = new Map<string, Lane[]>();
  let lastPosition: bigint | null = null;

  const lanesOf = (category: string): Lane[] => {
    let found = lanesByCategory.get(category);
    if (!found) {
      found = lanes.filter((lane) => lane.projection.categories.includes(category));
      lanesByCategory.set(category, found);
    }
    return found;
  };

  /** Each lane's events of the batch, in log order, in one pass over the batch. */
  function share(events: readonly StoredEvent[]): Share[] {
    const shares = new Map<Lane, Share>();
    for (const event of events) {
      for (const lane of lanesOf(streamCategory(event.stream))) {
        if (!lane.projection.knows(event.type)) {
          onUnknownEvent?.(lane.projection.name, event.type);
          continue;
        }
        const id = lane.projection.documentId(event);
        if (id === null) continue;
        let entry = shares.get(lane);
        if (!entry) shares.set(lane, (entry = { lane, events: [], ids: [], missing: new Set() }));
        entry.events.push(event);
        entry.ids.push(id);
        if (lane.held.has(id)) continue;
        // A document's beginning event is the first to touch it: there is nothing to load.
        if (lane.begins.has(event.type) && !entry.missing.has(id))
          lane.held.set(id, { doc: null, position: null, changed: false });
        else entry.missing.add(id);
      }
    }
    return [...shares.values()];
  }

  async function load(lane: Lane, ids: readonly string[]): Promise<void> {
    for (const id of ids) lane.held.set(id, { doc: null, position: null, changed: false });
    for (const doc of await readStore.getMany(lane.projection.collection, ids)) {
      const applied = doc[POSITION_FIELD];
      lane.held.set(doc.id, {
        doc,
        position: typeof applied === 'string' ? positionFromText(applied) : null,
        changed: false,
      });
    }
  }

  function fold({ lane, events, ids }: Share): void {
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      const held = lane.held.get(ids[i])!;
      if (recounting && !lane.touched.has(ids[i])) lane.touched.set(ids[i], held.doc);
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
      for (const part of share(events)) {
        if (part.missing.size > 0) await load(part.lane, [...part.missing]);
        fold(part);
      }
      lastPosition = events[events.length - 1].position;
    },

    async flush(consumer) {
      if (lastPosition === null) return;
      const writes: ReadModelWrite[] = [];
      for (const { projection, held, countedIn } of lanes) {
        const tallied = !recounting && countedIn.length > 0 ? { countedIn } : {};
        for (const [id, entry] of held) {
          if (!entry.changed) continue;
          entry.changed = false;
          const position = entry.position!;
          const doc = entry.doc && { ...entry.doc, [POSITION_FIELD]: positionToText(position) };
          writes.push({
            kind: 'put',
            collection: projection.collection,
            id,
            doc,
            position,
            ...tallied,
          });
        }
      }
      const recounts = recounting
        ? tallies
            .map(({ tally, source }) => ({
              tally,
              source,
              groups: touchedGroups(tally, source.touched, source.held),
            }))
            .filter(({ groups }) => groups.size > 0)
        : [];
      for (const lane of lanes) lane.touched.clear();
      // The checkpoint only with the last part: it never runs ahead of the documents written. A
      // recount counts the written documents, so it comes last, in the commit with the checkpoint.
      let from = 0;
      while (writes.length - from > (recounts.length > 0 ? 0 : writesPerCommit)) {
        const started = performance.now();
        await readStore.commit(
          writes.slice(from, (from = Math.min(writes.length, from + writesPerCommit))),
        );
        await pause?.(performance.now() - started);
      }
      const tallyWrites: ReadModelWrite[] = [];
      for (const { tally, source, groups } of recounts) {
        tallyWrites.push(
          ...(await recount(readStore, tally, source.projection.collection, groups)),
        );
      }
      await readStore.commit([...writes.slice(from), ...tallyWrites], {
        consumer,
        position: lastPosition,
      });
    },

    get size() {
      return lanes.reduce((sum, lane) => sum + lane.held.size, 0);
    },

    forget() {
      for (const lane of lanes) lane.held.clear();
    },
  };
}
