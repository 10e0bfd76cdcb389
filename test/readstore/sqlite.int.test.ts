import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, test } from 'vitest';
import type { Filter } from '../../src/readstore/port.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import { readStoreContract } from './contract.ts';
import { onlineRebuildContract } from './onlineRebuildContract.ts';
import { SPECS } from './fixtures.ts';
import { findPlans, slowSteps } from '../support/queryPlan.ts';

const dirs: string[] = [];
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'inkstream-readstore-'));
  dirs.push(dir);
  return join(dir, 'inkstream.sqlite');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('sqlite read store', () => {
  readStoreContract(async () => {
    const store = openSqliteReadStore(tempFile());
    return { store, dispose: () => store.close() };
  });
});

describe('sqlite read store, online rebuilds', () => {
  onlineRebuildContract(async () => {
    const file = tempFile();
    const stores = [openSqliteReadStore(file)];
    return {
      store: stores[0],
      async another() {
        stores.push(openSqliteReadStore(file));
        return stores.at(-1)!;
      },
      async dispose() {
        for (const store of stores) await store.close();
      },
    };
  });
});

describe('sqlite read store, file level', () => {
  test('another connection to the file (the admin CLI) sees committed documents and checkpoints', async () => {
    const path = tempFile();
    const store = openSqliteReadStore(path);
    await store.ensureCollections(SPECS);
    await store.commit(
      [
        {
          kind: 'put',
          collection: 'articles',
          id: 'a',
          position: 12n,
          doc: { id: 'a', status: 'draft' },
        },
      ],
      { consumer: 'projections', position: 12n },
    );
    const cli = new DatabaseSync(path, { readOnly: true });
    expect(cli.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(cli.prepare('SELECT id, position, doc FROM rm_articles').all()).toEqual([
      { id: 'a', position: '00000000000000000012', doc: '{"id":"a","status":"draft"}' },
    ]);
    expect(cli.prepare('SELECT consumer, position FROM checkpoints').all()).toEqual([
      { consumer: 'projections', position: '00000000000000000012' },
    ]);
    cli.close();
    await store.close();
    const reopened = openSqliteReadStore(path);
    await reopened.ensureCollections(SPECS);
    expect(await reopened.get('articles', 'a')).toEqual({ id: 'a', status: 'draft' });
    await reopened.close();
  });

  test('a find filtered and sorted as a compound index declares reads its page from that index: no scan, no sort', async () => {
    const path = tempFile();
    const store = openSqliteReadStore(path);
    await store.ensureCollections([
      {
        name: 'topics',
        indexes: [
          { projectId: 1, createdAt: -1 },
          { projectId: 1, status: 1, createdAt: -1 },
          'status',
        ],
      },
    ]);
    await store.commit(
      Array.from({ length: 30 }, (_, i) => ({
        kind: 'put' as const,
        collection: 'topics',
        id: `t${String(i).padStart(2, '0')}`,
        position: BigInt(i),
        doc: {
          id: `t${String(i).padStart(2, '0')}`,
          projectId: `p${i % 2}`,
          status: i % 3 ? 'approved' : 'draft',
          ...(i % 7 ? { createdAt: `2026-01-${10 + (i % 5)}` } : {}),
        },
      })),
    );
    const probe = new DatabaseSync(path, { readOnly: true });
    const newestFirst = { field: 'createdAt', direction: 'desc' as const };
    for (const filter of [
      { projectId: 'p0' },
      { projectId: 'p1', status: 'approved' },
    ] as Filter[]) {
      let cursor: string | undefined;
      do {
        const options = { filter, sort: newestFirst, limit: 2, cursor };
        for (const { sql, plan } of findPlans(probe, 'topics', options))
          expect({ sql, slow: slowSteps(plan) }).toEqual({ sql, slow: [] });
        cursor = (await store.find('topics', options)).nextCursor ?? undefined;
      } while (cursor);
    }
    // The same query with no index for its sort is what the test catches.
    expect(
      slowSteps(
        findPlans(probe, 'topics', { filter: { status: 'draft' }, sort: newestFirst, limit: 2 })[0]
          .plan,
      ),
    ).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
    probe.close();
    await store.close();
  });

  test('a file written with other indexes is brought to the declared ones at start, keeping its documents', async () => {
    const path = tempFile();
    const old = new DatabaseSync(path);
    old.exec(`CREATE TABLE rm_topics (id TEXT PRIMARY KEY, position TEXT, doc TEXT);
      CREATE INDEX "rm_topics/projectId" ON rm_topics (json_extract(doc, '$.projectId'), id);
      CREATE INDEX "rm_topics/createdAt" ON rm_topics (json_extract(doc, '$.createdAt'), id);
      INSERT INTO rm_topics VALUES ('t1', '00000000000000000001', '{"id":"t1","projectId":"p","createdAt":"2026-01-01"}'),
                                   ('t2', '00000000000000000002', '{"id":"t2","projectId":"p","createdAt":"2026-01-02"}');`);
    old.close();
    const store = openSqliteReadStore(path);
    await store.ensureCollections([
      { name: 'topics', indexes: [{ projectId: 1, createdAt: -1 }, 'projectId'] },
    ]);
    const probe = new DatabaseSync(path, { readOnly: true });
    expect(
      probe
        .prepare(
          `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'rm_topics/%' ORDER BY name`,
        )
        .all()
        .map((row) => ({ ...row })),
    ).toEqual([
      {
        name: 'rm_topics/projectId',
        sql: 'CREATE INDEX "rm_topics/projectId" ON rm_topics ("ix_projectId", id)',
      },
      {
        name: 'rm_topics/projectId,-createdAt',
        sql: 'CREATE INDEX "rm_topics/projectId,-createdAt" ON rm_topics ("ix_projectId", "ix_createdAt" DESC, id DESC)',
      },
    ]);
    const options = {
      filter: { projectId: 'p' },
      sort: { field: 'createdAt', direction: 'desc' as const },
      limit: 5,
    };
    expect(slowSteps(findPlans(probe, 'topics', options)[0].plan)).toEqual([]);
    expect((await store.find('topics', options)).items.map((doc) => doc.id)).toEqual(['t2', 't1']);
    probe.close();
    await store.close();
  });

  test('after a reset the replay writes into unindexed tables, and the first query, from any connection, builds the indexes', async () => {
    const path = tempFile();
    const app = openSqliteReadStore(path);
    const cli = openSqliteReadStore(path);
    await app.ensureCollections(SPECS);
    await cli.ensureCollections(SPECS);
    const indexes = () => {
      const probe = new DatabaseSync(path, { readOnly: true });
      const names = probe
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'rm_articles/%' ORDER BY name`,
        )
        .all();
      probe.close();
      return names.map((row) => row.name);
    };
    const declared = [
      'rm_articles/accountId',
      'rm_articles/featured',
      'rm_articles/publishedAt',
      'rm_articles/rank',
      'rm_articles/status',
    ];
    expect(indexes()).toEqual(declared);
    await cli.reset(['articles'], ['projections']);
    await cli.ensureCollections(SPECS);
    expect(indexes()).toEqual([]);
    await cli.commit([
      {
        kind: 'put',
        collection: 'articles',
        id: 'a',
        position: 1n,
        doc: { id: 'a', status: 'draft' },
      },
    ]);
    expect(await app.find('articles', { filter: { status: 'draft' }, limit: 5 })).toEqual({
      items: [{ id: 'a', status: 'draft' }],
      nextCursor: null,
    });
    expect(indexes()).toEqual(declared);
    await cli.commit([
      {
        kind: 'put',
        collection: 'articles',
        id: 'b',
        position: 2n,
        doc: { id: 'b', status: 'draft' },
      },
    ]);
    expect(await cli.count('articles', { status: 'draft' })).toBe(2);
    await app.close();
    await cli.close();
  });
});
