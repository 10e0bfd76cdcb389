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
});
