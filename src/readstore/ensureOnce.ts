import type { CollectionSpec, ReadStore } from './port.ts';

/**
 * A function that declares these collections once per store, for every caller (consumers,
 * workers, routes) to await before use; a failed declaration is tried again by the next caller.
 */
export function collectionsDeclaredOnce(
  specs: readonly CollectionSpec[],
): (readStore: ReadStore) => Promise<void> {
  const ensured = new WeakMap<ReadStore, Promise<void>>();
  return (readStore) => {
    let done = ensured.get(readStore);
    if (!done) {
      done = readStore.ensureCollections([...specs]);
      done.catch(() => ensured.delete(readStore));
      ensured.set(readStore, done);
    }
    return done;
  };
}
