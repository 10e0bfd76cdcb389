import type { Doc, Filter, ReadStore } from './port.ts';

/** Every document matching the filter, a page at a time, in id order. */
export async function* eachDoc<T extends Doc>(
  readStore: ReadStore,
  collection: string,
  filter: Filter,
  pageSize = 100,
): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const page = await readStore.find<T>(collection, { filter, limit: pageSize, cursor });
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
