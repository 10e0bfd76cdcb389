import type { CollectionSpec, Doc, ReadStore } from '../../src/readstore/port.ts';

export const SPECS: CollectionSpec[] = [
  { name: 'articles', indexes: ['accountId', 'status', 'rank', 'publishedAt', 'featured'] },
  { name: 'outbox', indexes: [] },
];

export type Sorting = { field: string; direction: 'asc' | 'desc' };

export const ids = (docs: readonly Doc[]): string[] => docs.map((doc) => doc.id);

/** Ties in every sort field, and publishedAt null on some documents and missing on others. */
export function paginationFixture(): Doc[] {
  return Array.from({ length: 23 }, (_, i) => {
    const doc: Doc = {
      id: `art_${String((i * 7) % 23).padStart(2, '0')}`,
      accountId: i % 3 === 0 ? 'acc_b' : 'acc_a',
      status: ['draft', 'queued', 'merged'][i % 3],
      rank: i % 4,
    };
    if (i % 5 === 1) doc.publishedAt = null;
    else if (i % 5 !== 2) doc.publishedAt = `2026-01-0${(i % 4) + 1}`;
    return doc;
  });
}

/** The order both stores promise: null (or missing) sorts lowest, ids break ties in the same direction. */
export function referenceOrder(
  docs: readonly Doc[],
  filter: Record<string, unknown>,
  sort: Sorting,
): string[] {
  const value = (doc: Doc) => (doc[sort.field] ?? null) as string | number | null;
  const compare = (x: Doc, y: Doc): number => {
    const a = value(x);
    const b = value(y);
    if (a !== b) {
      if (a === null) return -1;
      if (b === null) return 1;
      return a < b ? -1 : 1;
    }
    return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
  };
  const sign = sort.direction === 'asc' ? 1 : -1;
  return docs
    .filter((doc) => Object.entries(filter).every(([field, expected]) => doc[field] === expected))
    .sort((x, y) => sign * compare(x, y))
    .map((doc) => doc.id);
}

/** Every live document of the contract's collections, read through the port by pages. */
export async function everything(store: ReadStore): Promise<Record<string, Doc[]>> {
  const state: Record<string, Doc[]> = {};
  for (const { name } of SPECS) {
    state[name] = [];
    let cursor: string | undefined;
    do {
      const page = await store.find(name, { limit: 10, cursor });
      state[name].push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  return state;
}
