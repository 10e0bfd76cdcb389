import type { Doc, ReadStore } from './port.ts';

const PAGE = 200;

/**
 * Removes the documents that have aged out, oldest first: walks the collection in ascending
 * `sortField` order (an index, or the time-ordered id) and stops at the first document that is
 * not old. `keep` spares an old document (still in use); the walk goes on past it.
 */
export async function removeOldest<T extends Doc>(
  readStore: ReadStore,
  collection: string,
  options: { sortField: string; isOld(doc: T): boolean; keep?(doc: T): boolean | Promise<boolean> },
): Promise<number> {
  let removed = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await readStore.find<T>(collection, {
      sort: { field: options.sortField, direction: 'asc' },
      limit: PAGE,
      cursor,
    });
    const old = page.items.filter((doc) => options.isOld(doc));
    for (const doc of old) {
      if (await options.keep?.(doc)) continue;
      await readStore.remove(collection, doc.id);
      removed += 1;
    }
    if (old.length < page.items.length || !page.nextCursor) return removed;
    cursor = page.nextCursor;
    // SQLite answers synchronously: let requests in between pages of a large first clean-up.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
