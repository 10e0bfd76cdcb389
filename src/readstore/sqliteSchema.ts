import type { DatabaseSync } from 'node:sqlite';
import { fieldExpression, indexName, tableName } from './sqliteQuery.ts';

/**
 * Tables of the SQLite read store. Names come from validated collection and field names.
 *
 * A rebuild starts with reset(), which also drops the collection's secondary indexes and records
 * them as deferred: replaying the log into unindexed tables and building each index once at the
 * end (one sort) is several times faster than maintaining the indexes row by row. Only find and
 * count need the indexes, so the first of those on the collection, from any process, builds them.
 */
const DEFERRED = 'readstore_deferred_indexes';

export function createStoreTables(db: DatabaseSync): void {
  db.exec(`CREATE TABLE IF NOT EXISTS checkpoints (consumer TEXT PRIMARY KEY, position TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS ${DEFERRED} (collection TEXT PRIMARY KEY)`);
}

/** Must run inside a write transaction. */
export function createCollectionTable(db: DatabaseSync, collection: string): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${tableName(collection)} (id TEXT PRIMARY KEY, position TEXT, doc TEXT)`);
}

/** Must run inside a write transaction. */
export function createIndexes(db: DatabaseSync, collection: string, indexes: Iterable<string>): void {
  const table = tableName(collection);
  for (const field of indexes) {
    db.exec(`CREATE INDEX IF NOT EXISTS "${indexName(collection, field)}" ON ${table} (${fieldExpression(field)}, id)`);
  }
  db.prepare(`DELETE FROM ${DEFERRED} WHERE collection = ?`).run(collection);
}

/** Must run inside a write transaction. */
export function deferIndexes(db: DatabaseSync, collection: string): void {
  const prefix = indexName(collection, '');
  const indexes = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`).all(tableName(collection));
  for (const { name } of indexes) {
    if (typeof name === 'string' && name.startsWith(prefix)) db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  }
  db.prepare(`INSERT INTO ${DEFERRED} (collection) VALUES (?) ON CONFLICT (collection) DO NOTHING`).run(collection);
}

export function deferredIndexCheck(db: DatabaseSync): (collection: string) => boolean {
  const statement = db.prepare(`SELECT 1 AS deferred FROM ${DEFERRED} WHERE collection = ?`);
  return (collection) => statement.get(collection) !== undefined;
}
