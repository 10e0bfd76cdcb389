import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { applyProjections } from '../../src/consumers/projectionConsumer.ts';
import type { StoredEvent } from '../../src/eventstore/port.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import type { OnlineRebuilds, ReadModelWrite, ReadStore } from '../../src/readstore/port.ts';
import { defineProjection } from '../../src/readstore/projection.ts';
import {
  catchUpAfterSwap,
  rebuildOnline,
  stagingName,
  SWAP_CATCH_UP,
} from '../../src/readstore/rebuild.ts';
import { ids, SPECS } from './fixtures.ts';

/** A fresh store, and `another()`: a second connection to the same database, as another process has. */
export type OpenedStores = {
  store: ReadStore;
  another(): Promise<ReadStore>;
  dispose(): Promise<void>;
};

const put = (
  collection: string,
  id: string,
  position: bigint,
  fields: Record<string, unknown> = {},
): ReadModelWrite => ({ kind: 'put', collection, id, position, doc: { id, ...fields } });

const CHECKPOINTS = { built: 'rebuild', live: 'projections', catchUp: SWAP_CATCH_UP };

/** Counts each item's events. */
type Counted = { type: 'Counted'; data: { itemId: string } };
const counts = defineProjection<{ id: string; count: number }, Counted>({
  name: 'counts',
  collection: 'counts',
  indexes: ['count'],
  categories: ['item'],
  events: { Counted: true },
  documentId: (event) => event.data.itemId,
  evolve: (doc, event) => ({ id: event.data.itemId, count: (doc?.count ?? 0) + 1 }),
});

/** Rebuilding a collection beside the one that serves, then swapping it in: what every ReadStore adapter must show. */
export function onlineRebuildContract(open: () => Promise<OpenedStores>): void {
  let opened: OpenedStores;
  let store: ReadStore;
  let rebuilds: OnlineRebuilds;
  beforeEach(async () => {
    opened = await open();
    store = opened.store;
    await store.ensureCollections([...SPECS, { name: counts.collection, indexes: counts.indexes }]);
    rebuilds = store.onlineRebuilds;
  });
  afterEach(async () => {
    await opened.dispose();
  });

  test('the old documents serve until the staged copy has caught up with the live consumer; then the copy serves, with its version', async () => {
    await store.commit(
      [
        put('articles', 'a', 5n, { status: 'old' }),
        put('articles', 'stale', 6n, { status: 'old' }),
      ],
      { consumer: 'projections', position: 10n },
    );
    await rebuilds.stage('articles', stagingName('articles'), 'v2');
    await store.commit(
      [
        put(stagingName('articles'), 'a', 7n, { status: 'new' }),
        put(stagingName('articles'), 'b', 8n, { status: 'new' }),
      ],
      { consumer: 'rebuild', position: 8n },
    );
    expect(ids((await store.find('articles', { limit: 10 })).items)).toEqual(['a', 'stale']);

    expect(
      await rebuilds.swapIn(
        [{ collection: 'articles', staging: stagingName('articles') }],
        CHECKPOINTS,
      ),
    ).toBe(false);
    expect(await store.get('articles', 'a')).toMatchObject({ status: 'old' });
    expect(await rebuilds.versionOf('articles')).toBeNull();

    await store.commit([], { consumer: 'rebuild', position: 10n });
    expect(
      await rebuilds.swapIn(
        [{ collection: 'articles', staging: stagingName('articles') }],
        CHECKPOINTS,
      ),
    ).toBe(true);
    expect(
      (await store.find('articles', { limit: 10, sort: { field: 'status', direction: 'asc' } }))
        .items,
    ).toEqual([
      { id: 'a', status: 'new' },
      { id: 'b', status: 'new' },
    ]);
    expect(await store.count('articles', { status: 'old' })).toBe(0);
    expect(await rebuilds.versionOf('articles')).toBe('v2');
    expect(await store.getCheckpoint('rebuild')).toBeNull();
    expect(await store.getCheckpoint(SWAP_CATCH_UP)).toBe(10n); // where the build stopped, until the events since are replayed
    expect(await store.getCheckpoint('projections')).toBe(10n);
    // The swapped-in collection takes guarded writes as the old one did.
    await store.commit([
      put('articles', 'a', 7n, { status: 'replayed' }),
      put('articles', 'b', 11n, { status: 'newer' }),
    ]);
    expect(await store.getMany('articles', ['a', 'b'])).toEqual([
      { id: 'a', status: 'new' },
      { id: 'b', status: 'newer' },
    ]);
  });

  test('another process on the same database reads and writes the swapped-in collection', async () => {
    const server = await opened.another();
    await server.ensureCollections(SPECS);
    await server.commit([put('articles', 'a', 5n, { status: 'old' })], {
      consumer: 'projections',
      position: 5n,
    });
    await rebuilds.stage('articles', stagingName('articles'), 'v2');
    await store.commit([put(stagingName('articles'), 'a', 5n, { status: 'rebuilt' })], {
      consumer: 'rebuild',
      position: 5n,
    });
    expect(await server.get('articles', 'a')).toMatchObject({ status: 'old' });
    expect(
      await rebuilds.swapIn(
        [{ collection: 'articles', staging: stagingName('articles') }],
        CHECKPOINTS,
      ),
    ).toBe(true);
    expect(await server.get('articles', 'a')).toMatchObject({ status: 'rebuilt' });
    await server.commit([put('articles', 'c', 6n, { status: 'live' })], {
      consumer: 'projections',
      position: 6n,
    });
    expect(ids((await store.find('articles', { limit: 10 })).items)).toEqual(['a', 'c']);
    expect(await server.onlineRebuilds.versionOf('articles')).toBe('v2');
  });

  test("a rebuild that stalled while another staged the same read model does not swap the other's part-built copy in", async () => {
    await store.commit([put('articles', 'a', 5n, { status: 'serving' })]);
    await rebuilds.stage('articles', stagingName('articles'), 'v2');
    await store.commit([put(stagingName('articles'), 'a', 5n, { status: 'built by the first' })]);
    const second = await opened.another();
    await second.ensureCollections(SPECS);
    await second.onlineRebuilds.stage('articles', stagingName('articles'), 'v3');
    await expect(
      rebuilds.swapIn([{ collection: 'articles', staging: stagingName('articles') }], CHECKPOINTS),
    ).rejects.toThrow('another rebuild staged it since');
    expect(await store.get('articles', 'a')).toMatchObject({ status: 'serving' });
    expect(await rebuilds.versionOf('articles')).toBeNull();
  });

  test('staging again starts from an empty copy, and an empty copy swaps in as an empty collection', async () => {
    await store.commit([put('articles', 'a', 5n)]);
    await rebuilds.stage('articles', stagingName('articles'), 'v2');
    await store.commit([put(stagingName('articles'), 'left-behind', 5n)]);
    await rebuilds.stage('articles', stagingName('articles'), 'v3');
    expect(await store.count(stagingName('articles'))).toBe(0);
    expect(
      await rebuilds.swapIn(
        [{ collection: 'articles', staging: stagingName('articles') }],
        CHECKPOINTS,
      ),
    ).toBe(true);
    expect(await store.count('articles')).toBe(0);
    expect(await rebuilds.versionOf('articles')).toBe('v3');
  });

  /** A log of item events, and a live read model of it (the 'projections' checkpoint at the last). */
  async function liveCounts(items: readonly string[]) {
    const log = openSqliteEventStore(
      join(mkdtempSync(join(tmpdir(), 'ink-online-')), 'events.sqlite'),
    );
    let n = 0;
    const append = async (itemId: string): Promise<StoredEvent> => {
      await log.append(
        `item-${itemId}x${++n}`,
        [
          {
            id: crypto.randomUUID(),
            type: 'Counted',
            data: { itemId },
            metadata: {
              accountId: 'acc_t',
              actor: { kind: 'system', worker: 'test' },
              correlationId: 'c',
              causationId: 'c',
              requestId: 'r',
            },
          },
        ],
        'no_stream',
      );
      return (await log.readAll({ maxCount: 10_000 })).at(-1)!;
    };
    for (const itemId of items)
      await applyProjections([counts], store, [await append(itemId)], 'projections', log);
    const counted = async () =>
      (await store.find<{ id: string; count: number }>('counts', { limit: 10 })).items.map(
        ({ id, count }) => ({ id, count }),
      );
    return { log, append, counted };
  }

  /**
   * The store as a rebuild sees it when a replica commits an event in the middle of the swap: on
   * MongoDB a commit lands its documents first and moves its checkpoint after, so the documents land
   * on the collection about to be replaced while the swap's check still sees the checkpoint before them.
   */
  function withReplicaCommittingDuringSwap(
    live: Awaited<ReturnType<typeof liveCounts>>,
    afterSwap: () => Promise<void> | void = () => {},
  ): ReadStore {
    let raced = false;
    return {
      ...store,
      onlineRebuilds: {
        ...rebuilds,
        async swapIn(pairs, checkpoints) {
          if (raced) return rebuilds.swapIn(pairs, checkpoints);
          raced = true;
          const late = await live.append('y');
          await store.commit([
            {
              kind: 'put',
              collection: 'counts',
              id: 'y',
              doc: { id: 'y', count: 2 },
              position: late.position,
            },
          ]);
          const swapped = await rebuilds.swapIn(pairs, checkpoints);
          await store.commit([], { consumer: 'projections', position: late.position });
          await afterSwap();
          return swapped;
        },
      },
    };
  }

  test('an event a replica commits to the old collection during the swap is in the rebuilt one', async () => {
    const live = await liveCounts(['x', 'y', 'x']);
    const racing = withReplicaCommittingDuringSwap(live);
    expect(
      await rebuildOnline(live.log, racing, [counts], {
        consumer: 'rebuild',
        live: 'projections',
        versionOf: () => 'v2',
      }),
    ).toBe(true);
    expect(await live.counted()).toEqual([
      { id: 'x', count: 2 },
      { id: 'y', count: 2 },
    ]);
    expect(await store.getCheckpoint('rebuild')).toBeNull();
    expect(await store.getCheckpoint(SWAP_CATCH_UP)).toBeNull();
  });

  test('a later event of the same document, projected before the catch-up, waits for it: the document keeps both events', async () => {
    const live = await liveCounts(['x', 'y', 'x']);
    const racing = withReplicaCommittingDuringSwap(live, async () => {
      // A projecting process folds the document's next event on the swapped-in collection, which lacks the first.
      await applyProjections([counts], store, [await live.append('y')], 'projections', live.log);
    });
    expect(
      await rebuildOnline(live.log, racing, [counts], {
        consumer: 'rebuild',
        live: 'projections',
        versionOf: () => 'v2',
      }),
    ).toBe(true);
    expect(await live.counted()).toEqual([
      { id: 'x', count: 2 },
      { id: 'y', count: 3 },
    ]);
    expect(await store.getCheckpoint(SWAP_CATCH_UP)).toBeNull();
  });

  test('a rebuild killed between its swap and its catch-up: the next catch-up (run before every rebuild) brings in what the swap dropped', async () => {
    const live = await liveCounts(['x', 'y', 'x']);
    const killedAfterSwap = withReplicaCommittingDuringSwap(live, () => {
      throw new Error('killed');
    });
    await expect(
      rebuildOnline(live.log, killedAfterSwap, [counts], {
        consumer: 'rebuild',
        live: 'projections',
        versionOf: () => 'v2',
      }),
    ).rejects.toThrow('killed');
    // What the dead process left: the rebuilt collection without the replica's event, and where to catch up from.
    expect(await live.counted()).toEqual([
      { id: 'x', count: 2 },
      { id: 'y', count: 1 },
    ]);
    expect(await store.getCheckpoint(SWAP_CATCH_UP)).not.toBeNull();
    await catchUpAfterSwap(live.log, store, [counts]);
    expect(await live.counted()).toEqual([
      { id: 'x', count: 2 },
      { id: 'y', count: 2 },
    ]);
    expect(await store.getCheckpoint(SWAP_CATCH_UP)).toBeNull();
  });
}
