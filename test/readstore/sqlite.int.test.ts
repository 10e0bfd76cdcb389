import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, test } from 'vitest';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import { readStoreContract } from './contract.ts';
import { SPECS } from './fixtures.ts';

const dirs: string[] = [];
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'inkstream-readstore-'));
  dirs.push(dir);
  return join(dir, 'inkstream.sqlite');
};
afterEach(() => { for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true }); });

describe('sqlite read store', () => {
  readStoreContract(async () => {
    const store = openSqliteReadStore(tempFile());
    return { store, dispose: () => store.close() };
  });
});

describe('sqlite read store, file level', () => {
  test('another connection to the file (the admin CLI) sees committed documents and checkpoints', async () => {
    const path = tempFile();
    const store = openSqliteReadStore(path);
    await store.ensureCollections(SPECS);
    await store.commit([{ kind: 'put', collection: 'articles', id: 'a', position: 12n, doc: { id: 'a', status: 'draft' } }],
      { consumer: 'projections', position: 12n });
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

  test('filtered and sorted finds use the declared expression indexes', async () => {
    const path = tempFile();
    const store = openSqliteReadStore(path);
    await store.ensureCollections(SPECS);
    const probe = new DatabaseSync(path);
    const plan = (sql: string) => probe.prepare(`EXPLAIN QUERY PLAN ${sql}`).all().map((row) => String(row.detail)).join('; ');
    expect(plan(`SELECT doc FROM rm_articles WHERE doc IS NOT NULL AND json_extract(doc, '$.status') = 'draft'`))
      .toContain('USING INDEX rm_articles/status');
    expect(plan(`SELECT doc FROM rm_articles WHERE doc IS NOT NULL ORDER BY json_extract(doc, '$.rank') DESC, id DESC LIMIT 5`))
      .toContain('SCAN rm_articles USING INDEX rm_articles/rank');
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
      const names = probe.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'rm_articles/%' ORDER BY name`).all();
      probe.close();
      return names.map((row) => row.name);
    };
    const declared = ['rm_articles/accountId', 'rm_articles/featured', 'rm_articles/publishedAt', 'rm_articles/rank', 'rm_articles/status'];
    expect(indexes()).toEqual(declared);
    await cli.reset(['articles'], ['projections']);
    await cli.ensureCollections(SPECS);
    expect(indexes()).toEqual([]);
    await cli.commit([{ kind: 'put', collection: 'articles', id: 'a', position: 1n, doc: { id: 'a', status: 'draft' } }]);
    expect(await app.find('articles', { filter: { status: 'draft' }, limit: 5 })).toEqual({ items: [{ id: 'a', status: 'draft' }], nextCursor: null });
    expect(indexes()).toEqual(declared);
    await cli.commit([{ kind: 'put', collection: 'articles', id: 'b', position: 2n, doc: { id: 'b', status: 'draft' } }]);
    expect(await cli.count('articles', { status: 'draft' })).toBe(2);
    await app.close();
    await cli.close();
  });
});
