import type { Doc, ReadModelWrite, ReadStore, TallyTarget } from './port.ts';
import { POSITION_FIELD, type Projection, type TallySpec } from './projection.ts';
import { positionToText } from '../core/positions.ts';

/** A tally's document: one per group that has any source document. */
export type TallyDoc = { id: string; counts: Record<string, number> };

/**
 * A read model that counts another's documents instead of folding events; its counts are written
 * in the commit that writes the source's documents and moves the checkpoint (projectionFold.ts), so
 * a read that waits for the read models sees the documents and their counts together.
 * - SQLite: each source document written carries its tallies (`countedIn`), and the store's commit
 *   moves the document's count from the group and value of the row it replaced to its new ones,
 *   in the same transaction (sqliteTally.ts): a key lookup per document, whatever the group's size.
 * - MongoDB (no transaction spans the writes): the fold counts each group the batch touched again
 *   after the documents are written (`recount`, an indexed count per value), and commits the counts
 *   with the checkpoint. A recount is the truth whatever was delivered before or by another process.
 */
export function defineTally(
  definition: { name: string; collection: string; version?: number } & TallySpec,
): Projection<TallyDoc> {
  const { name, collection, version, ...tally } = definition;
  return {
    name,
    collection,
    indexes: [],
    categories: [],
    ...(version ? { version } : {}),
    tally,
    documentId: () => null,
    evolve: (doc) => doc,
    knows: () => false,
  };
}

/**
 * The groups the touched source documents were in before and are in now, each at the position of
 * its latest document: the same whatever the batches were, so the guard keeps the newest count.
 * What the fold recounts where the store cannot move counts in its commit (MongoDB).
 */
export function touchedGroups(
  tally: TallyTarget,
  touched: ReadonlyMap<string, Doc | null>,
  held: ReadonlyMap<string, { doc: Doc | null; position: bigint | null }>,
): Map<string, bigint> {
  const groups = new Map<string, bigint>();
  for (const [id, before] of touched) {
    const { doc, position } = held.get(id) ?? {};
    if (position == null) continue;
    for (const group of [before?.[tally.groupBy], doc?.[tally.groupBy]]) {
      if (typeof group === 'string' && position > (groups.get(group) ?? -1n))
        groups.set(group, position);
    }
  }
  return groups;
}

/** The tally's writes for these groups (each at its latest document's position), counted in the source collection as the store holds it now. */
export async function recount(
  readStore: ReadStore,
  tally: TallyTarget,
  sourceCollection: string,
  groups: ReadonlyMap<string, bigint>,
): Promise<ReadModelWrite[]> {
  const writes: ReadModelWrite[] = [];
  for (const [group, position] of groups) {
    const perValue = await Promise.all(
      tally.values.map((value) =>
        readStore.count(sourceCollection, { [tally.groupBy]: group, [tally.countBy]: value }),
      ),
    );
    const counts = Object.fromEntries(tally.values.map((value, i) => [value, perValue[i]]));
    const doc: Doc = { id: group, counts, [POSITION_FIELD]: positionToText(position) };
    writes.push({ kind: 'put', collection: tally.collection, id: group, doc, position });
  }
  return writes;
}

/**
 * The read models a rebuild of `selected` must include: a tally is counted from its source's
 * documents as the fold writes them, so the two are rebuilt together.
 */
export function withTallies(
  selected: readonly Projection[],
  all: readonly Projection[],
): Projection[] {
  const names = new Set(selected.map((projection) => projection.name));
  for (const projection of all) {
    if (projection.tally && (names.has(projection.name) || names.has(projection.tally.source))) {
      names.add(projection.name);
      names.add(projection.tally.source);
    }
  }
  return all.filter((projection) => names.has(projection.name));
}
