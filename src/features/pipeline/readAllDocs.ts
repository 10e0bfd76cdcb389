import type { Doc, Filter, ReadStore } from '../../readstore/port.ts';

const PAGE = 200;

/** Every document of a collection matching the filter, page by page. */
export async function readAllDocs<T extends Doc>(
  readStore: ReadStore,
  collection: string,
  filter?: Filter,
): Promise<T[]> {
  const found: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await readStore.find<T>(collection, { filter, limit: PAGE, cursor });
    found.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found;
}
