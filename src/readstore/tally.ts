import type { Doc, ReadModelWrite, ReadStore } from './port.ts';
import { POSITION_FIELD, type Projection, type TallySpec } from './projection.ts';
import { positionToText } from '../core/positions.ts';

/** A tally's document: one per group that has any source document. */
export type TallyDoc = { id: string; counts: Record<string, number> };

/**
 * A read model that counts another's documents instead of folding events. The projection fold
 * counts each group its source's events touched again, after the source's documents are written
 * and in the commit that moves the checkpoint (projectionFold.ts): a read that waits for the read
 * models sees the documents and their counts together. A recount is the truth whatever was
 * delivered before or by another process, so a replay or a crash cannot leave a count off by one.
 * A source document's group must never change (a project's article stays in its project).
 */
export function defineTally(definition: { name: string; collection: string; version?: number } & TallySpec): Projection<TallyDoc> {
  const { name, collection, version, ...tally } = definition;
  return {
    name, collection, indexes: [], categories: [], ...(version ? { version } : {}), tally,
    documentId: () => null,
    evolve: (doc) => doc,
  };
}

/** The tally's writes for these groups (each at its latest document's position), counted in the source collection as the store holds it now. */
export async function recount(
  readStore: ReadStore, tally: TallySpec & { collection: string }, sourceCollection: string, groups: ReadonlyMap<string, bigint>,
): Promise<ReadModelWrite[]> {
  const writes: ReadModelWrite[] = [];
  for (const [group, position] of groups) {
    const perValue = await Promise.all(tally.values.map((value) => readStore.count(sourceCollection, { [tally.groupBy]: group, [tally.countBy]: value })));
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
export function withTallies(selected: readonly Projection[], all: readonly Projection[]): Projection[] {
  const names = new Set(selected.map((projection) => projection.name));
  for (const projection of all) {
    if (projection.tally && (names.has(projection.name) || names.has(projection.tally.source))) {
      names.add(projection.name);
      names.add(projection.tally.source);
    }
  }
  return all.filter((projection) => names.has(projection.name));
}
