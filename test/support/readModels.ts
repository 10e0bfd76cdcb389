import type { ReadStore } from '../../src/readstore/port.ts';
import type { Projection } from '../../src/readstore/projection.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';

/** A SQLite read store at `file` with the projections' collections declared. */
export async function openReadModels(
  file: string,
  projections: readonly Projection[],
): Promise<ReadStore> {
  const store = openSqliteReadStore(file);
  await store.ensureCollections(
    projections.map((p) => ({ name: p.collection, indexes: p.indexes })),
  );
  return store;
}

/** Every document of each projection's collection, by id: two stores with equal dumps hold the same read models. */
export async function dumpReadModels(
  store: ReadStore,
  projections: readonly Projection[],
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const projection of projections) {
    out[projection.collection] = (
      await store.find(projection.collection, {
        limit: 200,
        sort: { field: 'id', direction: 'asc' },
      })
    ).items;
  }
  return out;
}
