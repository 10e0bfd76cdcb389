import type { Filter as MongoFilter, Sort } from 'mongodb';
import { indexKeys } from './collections.ts';
import type { CursorPosition } from './cursor.ts';
import type { Doc, Filter, FindOptions, IndexSpec } from './port.ts';

/**
 * How a read-model document is kept in MongoDB, mirroring the SQLite row: the caller's document
 * nests under `doc` (so its own field names never collide with ours), `doc: null` is a tombstone,
 * and `position` is the zero-padded text position of the last applied event — absent after an
 * unguarded save or an insert_if_absent.
 */
export type StoredDoc = { _id: string; position?: string; doc: Doc | null };

export const collectionName = (collection: string): string => `rm_${collection}`;

/** A consumer's checkpoint: the zero-padded text position of the last event it has applied. */
export type StoredCheckpoint = { _id: string; position: string };

/** The indexed path of a declared field; 'id' is the document's _id. */
export const fieldPath = (field: string): string => (field === 'id' ? '_id' : `doc.${field}`);

/** The same compound index as in SQLite: the fields in order and direction, then _id in the last one's direction. */
export function mongoIndex(index: IndexSpec): Record<string, 1 | -1> {
  const keys = indexKeys(index);
  const spec: Record<string, 1 | -1> = {};
  for (const { field, direction } of keys) spec[fieldPath(field)] = direction;
  spec._id = keys[keys.length - 1].direction;
  return spec;
}

/** Matches live documents with these field values; null matches null or missing, as in SQLite. */
export function filterQuery(filter: Filter | undefined): MongoFilter<StoredDoc> {
  const query: MongoFilter<StoredDoc> = { doc: { $ne: null } };
  for (const [field, value] of Object.entries(filter ?? {})) query[fieldPath(field)] = value;
  return query;
}

export function sortSpec(options: FindOptions): { sort: Sort; field: string } {
  const { field, direction } = options.sort ?? { field: 'id', direction: 'asc' as const };
  const dir = direction === 'desc' ? -1 : 1;
  return { field, sort: field === 'id' ? { _id: dir } : { [fieldPath(field)]: dir, _id: dir } };
}

/**
 * Keyset pagination: documents strictly after (key, id). MongoDB, like SQLite, sorts null and
 * missing values first ascending and last descending; comparisons are type-bracketed, so a sort
 * field must hold one scalar type across the collection.
 */
export function afterQuery(options: FindOptions, after: CursorPosition): MongoFilter<StoredDoc> {
  const { field, direction } = options.sort ?? { field: 'id', direction: 'asc' as const };
  const next = direction === 'asc' ? '$gt' : '$lt';
  if (field === 'id') return { _id: { [next]: after.id } };
  const path = fieldPath(field);
  if (after.key === null) {
    const tail: MongoFilter<StoredDoc>[] = [{ [path]: null, _id: { [next]: after.id } }];
    if (direction === 'asc') tail.push({ [path]: { $ne: null } });
    return { $or: tail };
  }
  const branches: MongoFilter<StoredDoc>[] = [
    { [path]: { [next]: after.key } },
    { [path]: after.key, _id: { [next]: after.id } },
  ];
  if (direction === 'desc') branches.push({ [path]: null });
  return { $or: branches };
}

export function readSortKey(stored: StoredDoc, field: string): unknown {
  if (field === 'id') return stored._id;
  return stored.doc?.[field] ?? null;
}

/** CursorNotFound, QueryPlanKilled, CursorKilled: what a read gets when a rename invalidates its cursor. */
const CURSOR_INVALIDATED = new Set([43, 175, 237]);

/**
 * Reads once more when an online rebuild's swap (a renameCollection over the collection read)
 * invalidated the cursor mid-read: the second read finds the swapped-in collection under the same
 * name. Reads only: a write interrupted so is the projection's to retry, guarded by its position.
 */
export async function readAgainIfSwapped<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!CURSOR_INVALIDATED.has((error as { code?: unknown }).code as number)) throw error;
    return read();
  }
}
