import { createHash } from 'node:crypto';
import { indexText } from './collections.ts';
import type { Projection } from './projection.ts';

/**
 * The version of a read model's definition: a hash of what decides its documents (the source of
 * documentId and evolve, its categories, indexes and beginning events) and of its explicit
 * `version`, which a change outside those functions (a helper evolve calls) bumps by hand. A
 * read model built with another version is rebuilt beside the old one and swapped in at start.
 */
export function projectionVersion(projection: Projection): string {
  const definition = JSON.stringify({
    version: projection.version ?? 1,
    collection: projection.collection,
    categories: projection.categories,
    indexes: projection.indexes.map(indexText),
    begins: projection.begins ?? [],
    documentId: String(projection.documentId),
    evolve: String(projection.evolve),
    tally: projection.tally,
  });
  return createHash('sha256').update(definition).digest('hex').slice(0, 16);
}
