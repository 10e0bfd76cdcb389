import type { DatabaseSync } from 'node:sqlite';
import { indexedFields, indexKeys, indexText } from './collections.ts';
import type { IndexSpec } from './port.ts';
import { columnName, indexName, tableName } from './sqliteQuery.ts';

/**
 * Tables of the SQLite read store. Names come from validated collection and field names.
 *
 * Each indexed field is a generated column, `ix_<field>` = json_extract(doc, '$.<field>'), and each
 * declared index is a compound index over those columns and id, so a list query seeks and orders
 * by the index alone. A declaration that changed since the file was written is reconciled at
 * start: columns are added, indexes whose definition differs are dropped and built again.
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
export function createCollectionTable(db: DatabaseSync, collection: string, indexes: readonly IndexSpec[] = []): void {
  const table = tableName(collection);
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, position TEXT, doc TEXT)`);
  const columns = new Set(db.prepare(`PRAGMA table_xinfo(${table})`).all().map((row) => row.name));
  for (const field of indexedFields(indexes)) {
    // VIRTUAL: computed from doc when written into an index, so writers and old rows need no change.
    if (!columns.has(columnName(field))) {
      db.exec(`ALTER TABLE ${table} ADD COLUMN "${columnName(field)}" GENERATED ALWAYS AS (json_extract(doc, '$.${field}')) VIRTUAL`);
    }
  }
}

/** The statement that builds the index; sqlite_master keeps this text, so a changed definition shows. */
export function indexSql(collection: string, index: IndexSpec): string {
  const keys = indexKeys(index);
  const last = keys[keys.length - 1].direction;
  const columns = keys.map(({ field, direction }) => `"${columnName(field)}"${direction === -1 ? ' DESC' : ''}`);
  return `CREATE INDEX "${indexName(collection, indexText(index))}" ON ${tableName(collection)} (${columns.join(', ')}, id${last === -1 ? ' DESC' : ''})`;
}

/**
 * Builds the declared indexes and drops the collection's others (an index no longer declared,
 * or one whose definition changed). Must run inside a write transaction.
 */
export function createIndexes(db: DatabaseSync, collection: string, indexes: readonly IndexSpec[]): void {
  createCollectionTable(db, collection, indexes);
  const wanted = new Map(indexes.map((index) => [indexName(collection, indexText(index)), indexSql(collection, index)]));
  const existing = new Map<string, string>();
  for (const { name, sql } of ownIndexes(db, collection)) {
    if (wanted.get(name) === sql) existing.set(name, sql);
    else db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  }
  for (const [name, sql] of wanted) if (!existing.has(name)) db.exec(sql);
  db.prepare(`DELETE FROM ${DEFERRED} WHERE collection = ?`).run(collection);
}

/** Must run inside a write transaction. */
export function deferIndexes(db: DatabaseSync, collection: string): void {
  for (const { name } of ownIndexes(db, collection)) db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  db.prepare(`INSERT INTO ${DEFERRED} (collection) VALUES (?) ON CONFLICT (collection) DO NOTHING`).run(collection);
}

export function deferredIndexCheck(db: DatabaseSync): (collection: string) => boolean {
  const statement = db.prepare(`SELECT 1 AS deferred FROM ${DEFERRED} WHERE collection = ?`);
  return (collection) => statement.get(collection) !== undefined;
}

/** The read store's secondary indexes on the collection's table (not the primary key's). */
function ownIndexes(db: DatabaseSync, collection: string): { name: string; sql: string }[] {
  const prefix = indexName(collection, '');
  return db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`).all(tableName(collection))
    .filter((row) => typeof row.name === 'string' && row.name.startsWith(prefix))
    .map((row) => ({ name: row.name as string, sql: String(row.sql) }));
}
