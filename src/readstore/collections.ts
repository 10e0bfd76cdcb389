import { positionToText } from '../core/positions.ts';
import type { CollectionSpec, Filter, FindOptions, IndexSpec } from './port.ts';

/**
 * Collection and field names end up inside SQL text and index definitions, so they are checked
 * against a strict pattern and against what ensureCollections declared. Values never are: they
 * are always bound as parameters.
 */
const COLLECTION_NAME = /^[a-z][a-z0-9_]{0,62}$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export type IndexKey = { field: string; direction: 1 | -1 };

/** An index's fields in order; a plain field name is that field ascending. */
export function indexKeys(index: IndexSpec): IndexKey[] {
  if (typeof index === 'string') return [{ field: index, direction: 1 }];
  return Object.entries(index).map(([field, direction]) => ({ field, direction }));
}

/** The index as text, `projectId,-createdAt`: fields in order, a minus for descending. Equal indexes have equal text. */
export function indexText(index: IndexSpec): string {
  return indexKeys(index)
    .map(({ field, direction }) => `${direction === -1 ? '-' : ''}${field}`)
    .join(',');
}

/** Every field any of the indexes names. */
export function indexedFields(indexes: readonly IndexSpec[]): string[] {
  return [...new Set(indexes.flatMap((index) => indexKeys(index).map((key) => key.field)))];
}

export function assertCollectionSpec(spec: CollectionSpec): void {
  if (!COLLECTION_NAME.test(spec.name)) {
    throw new Error(`collection name ${JSON.stringify(spec.name)} must match ${COLLECTION_NAME}`);
  }
  for (const index of spec.indexes) {
    const keys = indexKeys(index);
    if (keys.length === 0) throw new Error(`an index of ${spec.name} names no field`);
    for (const { field, direction } of keys) {
      if (field === 'id' || !FIELD_NAME.test(field)) {
        throw new Error(
          `index ${JSON.stringify(field)} of ${spec.name} must match ${FIELD_NAME} and not be 'id'`,
        );
      }
      if (direction !== 1 && direction !== -1)
        throw new Error(`index ${JSON.stringify(field)} of ${spec.name} must be 1 or -1`);
    }
  }
}

export type CollectionRegistry = {
  declare(spec: CollectionSpec): void;
  /** The declared indexed fields; throws for a collection ensureCollections has not declared. */
  indexesOf(collection: string): ReadonlySet<string>;
  /** The declared indexes of the collection, as declared. */
  indexSpecsOf(collection: string): readonly IndexSpec[];
  /** Throws unless every filtered or sorted field is 'id' or a declared index. */
  assertQueryable(collection: string, filter: Filter | undefined, sort?: FindOptions['sort']): void;
};

export function createCollectionRegistry(): CollectionRegistry {
  const declared = new Map<string, Set<string>>();
  const specs = new Map<string, Map<string, IndexSpec>>();

  function indexesOf(collection: string): ReadonlySet<string> {
    const indexes = declared.get(collection);
    if (!indexes)
      throw new Error(
        `collection ${JSON.stringify(collection)} is not declared; call ensureCollections first`,
      );
    return indexes;
  }

  function assertField(collection: string, indexes: ReadonlySet<string>, field: string): void {
    if (field !== 'id' && !indexes.has(field)) {
      throw new Error(
        `field ${JSON.stringify(field)} is not an index of ${collection}; declare it in ensureCollections`,
      );
    }
  }

  return {
    declare(spec) {
      assertCollectionSpec(spec);
      // Several projections may share a collection: their indexes add up.
      const indexes = declared.get(spec.name) ?? new Set<string>();
      for (const field of indexedFields(spec.indexes)) indexes.add(field);
      declared.set(spec.name, indexes);
      const byText = specs.get(spec.name) ?? new Map<string, IndexSpec>();
      for (const index of spec.indexes) byText.set(indexText(index), index);
      specs.set(spec.name, byText);
    },
    indexesOf,
    indexSpecsOf(collection) {
      indexesOf(collection);
      return [...(specs.get(collection)?.values() ?? [])];
    },
    assertQueryable(collection, filter, sort) {
      const indexes = indexesOf(collection);
      for (const [field, value] of Object.entries(filter ?? {})) {
        assertField(collection, indexes, field);
        if (field === 'id' && typeof value !== 'string')
          throw new Error(`an id filter must be a string`);
      }
      if (sort) {
        assertField(collection, indexes, sort.field);
        if (sort.direction !== 'asc' && sort.direction !== 'desc')
          throw new Error(`sort direction must be asc or desc`);
      }
    },
  };
}

export function assertLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`limit must be a positive integer, got ${limit}`);
}

export function assertWriteId(collection: string, id: string, doc: { id: string } | null): void {
  if (doc !== null && doc.id !== id) {
    throw new Error(
      `write to ${collection}/${id} carries a document whose id is ${JSON.stringify(doc.id)}`,
    );
  }
}

/** The stored text of a write's position; zero-padded so that text order is numeric order. */
export function writePosition(position: bigint): string {
  if (position < 0n) throw new Error(`a read model position cannot be negative, got ${position}`);
  return positionToText(position);
}
