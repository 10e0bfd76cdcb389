import fc from 'fast-check';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Doc, Filter, ReadModelWrite, ReadStore } from '../../src/readstore/port.ts';
import {
  everything,
  ids,
  paginationFixture,
  referenceOrder,
  SPECS,
  type Sorting,
} from './fixtures.ts';

export type OpenedStore = { store: ReadStore; dispose(): Promise<void> };

const put = (
  id: string,
  position: bigint,
  fields: Record<string, unknown> | null = {},
): ReadModelWrite => ({
  kind: 'put',
  collection: 'articles',
  id,
  position,
  doc: fields && { id, ...fields },
});
const insert = (id: string, fields: Record<string, unknown> = {}): ReadModelWrite => ({
  kind: 'insert_if_absent',
  collection: 'outbox',
  id,
  doc: { id, ...fields },
});

/** The behaviour every ReadStore adapter must show; each adapter's test file runs it against a fresh store. */
export function readStoreContract(open: () => Promise<OpenedStore>): void {
  let opened: OpenedStore;
  let store: ReadStore;
  beforeEach(async () => {
    opened = await open();
    store = opened.store;
    await store.ensureCollections(SPECS);
  });
  afterEach(async () => {
    await opened.dispose();
  });

  test('a put document reads back, a missing one is null', async () => {
    await store.commit([put('a', 1n, { status: 'draft', tags: ['x'], nested: { n: 1 } })]);
    expect(await store.get('articles', 'a')).toEqual({
      id: 'a',
      status: 'draft',
      tags: ['x'],
      nested: { n: 1 },
    });
    expect(await store.get('articles', 'missing')).toBeNull();
  });

  test('a put with an older or equal position is ignored, a newer one applies (positions compare as numbers)', async () => {
    await store.commit([put('a', 10n, { status: 'ten' })]);
    await store.commit([put('a', 9n, { status: 'nine' }), put('a', 10n, { status: 'ten again' })]);
    expect(await store.get('articles', 'a')).toMatchObject({ status: 'ten' });
    await store.commit([put('a', 100n, { status: 'hundred' })]);
    expect(await store.get('articles', 'a')).toMatchObject({ status: 'hundred' });
  });

  test('a deleted document is not resurrected by a replayed older event, only by a newer one', async () => {
    await store.commit([put('a', 5n, { status: 'draft' }), put('b', 5n, { status: 'draft' })]);
    await store.commit([put('a', 7n, null)]);
    await store.commit([put('a', 5n, { status: 'draft' }), put('a', 6n, { status: 'queued' })]);
    expect(await store.get('articles', 'a')).toBeNull();
    expect(await store.count('articles')).toBe(1);
    expect(ids((await store.find('articles', { limit: 10 })).items)).toEqual(['b']);
    expect(await store.getMany('articles', ['a', 'b'])).toEqual([{ id: 'b', status: 'draft' }]);
    await store.commit([put('a', 8n, { status: 'revived' })]);
    expect(await store.get('articles', 'a')).toMatchObject({ status: 'revived' });
  });

  test('insert_if_absent inserts once and never overwrites', async () => {
    await store.commit([insert('d1', { attempt: 1 })]);
    await store.commit([insert('d1', { attempt: 2 }), insert('d2', { attempt: 1 })]);
    expect(await store.getMany('outbox', ['d1', 'd2'])).toEqual([
      { id: 'd1', attempt: 1 },
      { id: 'd2', attempt: 1 },
    ]);
  });

  test('save overwrites without a guard, remove deletes, and a later guarded put still applies', async () => {
    await store.commit([put('a', 50n, { status: 'projected' })]);
    await store.save('articles', { id: 'a', status: 'saved' });
    expect(await store.get('articles', 'a')).toMatchObject({ status: 'saved' });
    await store.commit([put('a', 1n, { status: 'projected again' })]);
    expect(await store.get('articles', 'a')).toMatchObject({ status: 'projected again' });
    await store.remove('articles', 'a');
    expect(await store.get('articles', 'a')).toBeNull();
  });

  test('getMany returns found documents in the order asked, leaving out missing and deleted ones', async () => {
    await store.commit([put('a', 1n), put('b', 2n), put('c', 3n), put('c', 4n, null)]);
    expect(ids(await store.getMany('articles', ['b', 'missing', 'c', 'a', 'b']))).toEqual([
      'b',
      'a',
    ]);
    expect(await store.getMany('articles', [])).toEqual([]);
  });

  test('find filters by indexed fields and id; null matches null or missing; types are strict', async () => {
    await store.commit([
      put('a', 1n, {
        accountId: 'acc_1',
        status: 'draft',
        featured: true,
        rank: 1,
        publishedAt: null,
      }),
      put('b', 2n, { accountId: 'acc_1', status: 'queued', featured: 1, rank: '1' }),
      put('c', 3n, {
        accountId: 'acc_2',
        status: 'draft',
        featured: 'true',
        rank: 1.5,
        publishedAt: '2026-01-01',
      }),
      put('d', 4n, { accountId: 'acc_1', status: 'draft', featured: false, rank: 0 }),
    ]);
    const found = async (filter: Filter) =>
      ids((await store.find('articles', { filter, limit: 10 })).items);
    expect(await found({ status: 'draft' })).toEqual(['a', 'c', 'd']);
    expect(await found({ accountId: 'acc_1', status: 'draft' })).toEqual(['a', 'd']);
    expect(await found({ publishedAt: null })).toEqual(['a', 'b', 'd']);
    expect(await found({ featured: true })).toEqual(['a']);
    expect(await found({ featured: false })).toEqual(['d']);
    expect(await found({ rank: 1 })).toEqual(['a']);
    expect(await found({ rank: '1' })).toEqual(['b']);
    expect(await found({ rank: 1.5 })).toEqual(['c']);
    expect(await found({ id: 'c' })).toEqual(['c']);
    expect(await store.count('articles', { accountId: 'acc_1' })).toBe(3);
    expect(await store.count('articles', { publishedAt: null })).toBe(3);
    expect(await store.count('articles')).toBe(4);
  });

  test('cursor pages cover every matching document exactly once, in sort order with id breaking ties', async () => {
    const docs = paginationFixture();
    await store.commit(docs.map((doc, index) => put(doc.id, BigInt(index), doc)));
    const sortings: Sorting[] = ['id', 'rank', 'publishedAt', 'status'].flatMap((field) =>
      (['asc', 'desc'] as const).map((direction) => ({ field, direction })),
    );
    const filters: Filter[] = [{}, { accountId: 'acc_a' }];
    for (const filter of filters) {
      for (const sort of sortings) {
        const expected = referenceOrder(docs, filter, sort);
        for (const limit of [1, 4, 7, 50]) {
          const seen: string[] = [];
          let cursor: string | undefined;
          for (let pages = 0; pages <= docs.length; pages++) {
            const page = await store.find('articles', { filter, sort, limit, cursor });
            expect(page.items.length).toBeLessThanOrEqual(limit);
            seen.push(...ids(page.items));
            if (page.nextCursor === null) break;
            cursor = page.nextCursor;
          }
          expect(
            seen,
            `${JSON.stringify(filter)} ${sort.field} ${sort.direction} limit ${limit}`,
          ).toEqual(expected);
        }
      }
    }
  });

  test('an undeclared collection, field or direction throws instead of reaching the database', async () => {
    await expect(
      store.find('articles', { filter: { 'status) OR 1=1 --': 'x' }, limit: 5 }),
    ).rejects.toThrow(/not an index/);
    await expect(
      store.find('articles', { sort: { field: 'title', direction: 'asc' }, limit: 5 }),
    ).rejects.toThrow(/not an index/);
    await expect(
      store.find('articles', { sort: { field: 'rank', direction: 'up' as 'asc' }, limit: 5 }),
    ).rejects.toThrow(/direction/);
    await expect(
      store.count('articles', { "x') IS NULL; DROP TABLE rm_articles; --": 1 }),
    ).rejects.toThrow(/not an index/);
    await expect(store.get('articles; DROP TABLE checkpoints', 'a')).rejects.toThrow(
      /not declared/,
    );
    await expect(
      store.ensureCollections([{ name: 'bad', indexes: ["a'); DROP TABLE x; --"] }]),
    ).rejects.toThrow();
    await expect(
      store.find('articles', { limit: 5, cursor: 'not a cursor' }),
    ).rejects.toMatchObject({ code: 'bad_request' });
    await expect(store.find('articles', { limit: 0 })).rejects.toThrow(/limit/);
  });

  test('the checkpoint moves with the writes, keeps bigint precision, and stays put when a batch fails', async () => {
    expect(await store.getCheckpoint('projections')).toBeNull();
    await store.commit([put('a', 3n, { status: 'draft' })], {
      consumer: 'projections',
      position: 3n,
    });
    expect(await store.getCheckpoint('projections')).toBe(3n);
    expect(await store.get('articles', 'a')).not.toBeNull();
    const huge = 2n ** 63n + 7n;
    await store.commit([], { consumer: 'projections', position: huge });
    expect(await store.getCheckpoint('projections')).toBe(huge);
    const failing = [put('b', 4n), { ...put('c', 5n), collection: 'undeclared' }];
    await expect(
      store.commit(failing, { consumer: 'projections', position: huge + 1n }),
    ).rejects.toThrow(/not declared/);
    expect(await store.getCheckpoint('projections')).toBe(huge);
    expect(await store.get('articles', 'b')).toBeNull();
  });

  test('a checkpoint never moves backwards: a replica behind commits its older progress, the checkpoint stays', async () => {
    await store.commit([put('a', 20n, { status: 'ahead' })], {
      consumer: 'projections',
      position: 20n,
    });
    await store.commit([put('a', 9n, { status: 'behind' })], {
      consumer: 'projections',
      position: 9n,
    });
    expect(await store.getCheckpoint('projections')).toBe(20n);
    await store.commit([], { consumer: 'projections', position: 20n });
    expect(await store.getCheckpoint('projections')).toBe(20n);
    expect(await store.get('articles', 'a')).toMatchObject({ status: 'ahead' });
    await store.commit([], { consumer: 'projections', position: 100n });
    expect(await store.getCheckpoint('projections')).toBe(100n);
  });

  test('a lease is held by one holder until it expires or is released', async () => {
    expect(await store.acquireLease('background', 'a', 1000, 10_000)).toBe(true);
    expect(await store.acquireLease('background', 'b', 1000, 10_500)).toBe(false);
    expect(await store.acquireLease('background', 'a', 1000, 10_900)).toBe(true); // renewed until 11,900
    expect(await store.acquireLease('background', 'b', 1000, 11_500)).toBe(false);
    expect(await store.acquireLease('background', 'b', 1000, 11_900)).toBe(true); // expired: taken over
    expect(await store.acquireLease('background', 'a', 1000, 12_000)).toBe(false);
    await store.releaseLease('background', 'a'); // not a's any more: nothing happens
    expect(await store.acquireLease('background', 'a', 1000, 12_000)).toBe(false);
    await store.releaseLease('background', 'b');
    expect(await store.acquireLease('background', 'a', 1000, 12_000)).toBe(true);
    expect(await store.acquireLease('other', 'b', 1000, 12_000)).toBe(true);
    expect(await store.leaseHolder('other')).toEqual({ holder: 'b', expiresAtMs: 13_000 });
    expect(await store.leaseHolder('nobody')).toBeNull();
  });

  test('a live lease can be taken over only from the holder named as replaced', async () => {
    expect(await store.acquireLease('background', 'dead', 60_000, 0)).toBe(true);
    expect(
      await store.acquireLease('background', 'new', 60_000, 1, { replacing: 'someone-else' }),
    ).toBe(false);
    expect(await store.acquireLease('background', 'new', 60_000, 1, { replacing: 'dead' })).toBe(
      true,
    );
    expect((await store.leaseHolder('background'))?.holder).toBe('new');
  });

  test('reset drops the named collections and checkpoints only', async () => {
    await store.commit([put('a', 1n), insert('d1')], { consumer: 'projections', position: 1n });
    await store.commit([], { consumer: 'webhooks', position: 1n });
    await store.reset(['articles'], ['projections']);
    expect(await store.count('articles')).toBe(0);
    expect(await store.get('outbox', 'd1')).not.toBeNull();
    expect(await store.getCheckpoint('projections')).toBeNull();
    expect(await store.getCheckpoint('webhooks')).toBe(1n);
    await store.commit([put('a', 1n, { status: 'rebuilt' })]);
    expect(await store.get('articles', 'a')).toMatchObject({ status: 'rebuilt' });
  });

  test('a write batch applied twice leaves the same state as applied once', async () => {
    const batch = [
      put('a', 1n, { status: 'draft' }),
      put('a', 2n, { status: 'queued' }),
      put('b', 3n),
      put('b', 4n, null),
      insert('d1'),
    ];
    await store.commit(batch, { consumer: 'projections', position: 4n });
    const once = await everything(store);
    await store.commit(batch, { consumer: 'projections', position: 4n });
    expect(await everything(store)).toEqual(once);
    expect(once.articles).toEqual([{ id: 'a', status: 'queued' }]);
  });

  test('any delivery order, batching and duplication converges to the newest write per document', async () => {
    const step = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd'),
      kind: fc.constantFrom('put', 'put', 'delete', 'insert'),
      status: fc.constantFrom('draft', 'queued', 'merged'),
      order: fc.nat(1000),
      cut: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 24 }), async (steps) => {
        await store.reset(['articles', 'outbox'], []);
        const writes = steps.map(
          (s, index): ReadModelWrite =>
            s.kind === 'insert'
              ? {
                  kind: 'insert_if_absent',
                  collection: 'articles',
                  id: s.id,
                  doc: { id: s.id, status: 'inserted' },
                }
              : put(s.id, BigInt(index), s.kind === 'delete' ? null : { status: s.status }),
        );
        const delivery = steps
          .map((s, index) => ({ s, write: writes[index] }))
          .sort((x, y) => x.s.order - y.s.order);
        let batch: ReadModelWrite[] = [];
        for (const { s, write } of [...delivery, ...delivery]) {
          batch.push(write);
          if (s.cut) {
            await store.commit(batch);
            batch = [];
          }
        }
        await store.commit(batch);
        expect((await everything(store)).articles).toEqual(expectedState(writes));
      }),
      { numRuns: 40 },
    );
  });
}

function expectedState(writes: readonly ReadModelWrite[]): Doc[] {
  const state = new Map<string, { position: bigint; doc: Doc | null }>();
  for (const write of writes) {
    const current = state.get(write.id);
    if (write.kind === 'insert_if_absent') {
      if (!current) state.set(write.id, { position: -1n, doc: write.doc });
      continue;
    }
    if (!current || current.position < write.position)
      state.set(write.id, { position: write.position, doc: write.doc });
  }
  return [...state.values()]
    .flatMap(({ doc }) => (doc ? [doc] : []))
    .sort((x, y) => (x.id < y.id ? -1 : 1));
}
