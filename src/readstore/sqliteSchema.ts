import type { DatabaseSync } from 'node:sqlite';
import { indexedFields, indexKeys, indexText } from './collections.ts';
import type { IndexSpec } from './port.ts';
import { columnName, indexName } from './sqliteQuery.ts';

/**
 * Tables of the SQLite read store. Names come from validated collection and field names. Every
 * function here takes the collection's table (`rm_<name>`, or the table a rebuild swapped in,
 * recorded in readstore_tables) and must run inside a write transaction unless it only reads.
 *
 * Each indexed field is a generated column, `ix_<field>` = json_extract(doc, '$.<field>'), and each
 * declared index is a compound index over those columns and id, so a list query seeks and orders
 * by the index alone. A declaration that changed since the file was written is reconciled at
 * start: columns are added, indexes whose definition differs are dropped and built again.
 *
 * A rebuild in place starts with reset(), which also drops the collection's secondary indexes and
 * records them as deferred: replaying the log into unindexed tables and building each index once
 * at the end (one sort) is several times faster than maintaining the indexes row by row. Only
 * find and count need the indexes, so the first of those on the collection, from any process,
 * builds them. A staged copy (an online rebuild) starts deferred the same way.
 */
const DEFERRED = 'readstore_deferred_indexes';
/** Which table holds each collection, when not rm_<name>, and the version of the definition it was built with. */
export const TABLES = 'readstore_tables';

export function createStoreTables(db: DatabaseSync): void {
  db.exec(`CREATE TABLE IF NOT EXISTS checkpoints (consumer TEXT PRIMARY KEY, position TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS ${DEFERRED} (collection TEXT PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS ${TABLES} (collection TEXT PRIMARY KEY, table_name TEXT NOT NULL, version TEXT)`);
}

export function tableExists(db: DatabaseSync, table: string): boolean {
  return (
    db
      .prepare(`SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?`)
      .get(table) !== undefined
  );
}

export function createCollectionTable(
  db: DatabaseSync,
  table: string,
  indexes: readonly IndexSpec[] = [],
): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, position TEXT, doc TEXT)`);
  const columns = new Set(
    db
      .prepare(`PRAGMA table_xinfo(${table})`)
      .all()
      .map((row) => row.name),
  );
  for (const field of indexedFields(indexes)) {
    // VIRTUAL: computed from doc when written into an index, so writers and old rows need no change.
    if (!columns.has(columnName(field))) {
      db.exec(
        `ALTER TABLE ${table} ADD COLUMN "${columnName(field)}" GENERATED ALWAYS AS (json_extract(doc, '$.${field}')) VIRTUAL`,
      );
    }
  }
}

/** The statement that builds the index; sqlite_master keeps this text, so a changed definition shows. */
export function indexSql(table: string, index: IndexSpec): string {
  const keys = indexKeys(index);
  const last = keys[keys.length - 1].direction;
  const columns = keys.map(
    ({ field, direction }) => `"${columnName(field)}"${direction === -1 ? ' DESC' : ''}`,
  );
  return `CREATE INDEX "${indexName(table, indexText(index))}" ON ${table} (${columns.join(', ')}, id${last === -1 ? ' DESC' : ''})`;
}

/** Builds the declared indexes and drops the table's others (no longer declared, or defined differently). */
export function createIndexes(
  db: DatabaseSync,
  table: string,
  indexes: readonly IndexSpec[],
): void {
  createCollectionTable(db, table, indexes);
  const wanted = new Map(
    indexes.map((index) => [indexName(table, indexText(index)), indexSql(table, index)]),
  );
  const existing = new Set<string>();
  for (const { name, sql } of ownIndexes(db, table)) {
    if (wanted.get(name) === sql) existing.add(name);
    else db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  }
  for (const [name, sql] of wanted) if (!existing.has(name)) db.exec(sql);
  db.prepare(`DELETE FROM ${DEFERRED} WHERE collection = ?`).run(table);
}

/** Builds one declared index if the table lacks it (a deferred table's are built one a transaction, so each holds the write lock for one sort). */
export function createIndexIfMissing(db: DatabaseSync, table: string, index: IndexSpec): void {
  const name = indexName(table, indexText(index));
  if (
    db
      .prepare(`SELECT 1 AS found FROM sqlite_master WHERE type = 'index' AND name = ?`)
      .get(name) === undefined
  )
    db.exec(indexSql(table, index));
}

export function deferIndexes(db: DatabaseSync, table: string): void {
  for (const { name } of ownIndexes(db, table))
    db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  db.prepare(
    `INSERT INTO ${DEFERRED} (collection) VALUES (?) ON CONFLICT (collection) DO NOTHING`,
  ).run(table);
}

export function deferredIndexCheck(db: DatabaseSync): (table: string) => boolean {
  const statement = db.prepare(`SELECT 1 AS deferred FROM ${DEFERRED} WHERE collection = ?`);
  return (table) => statement.get(table) !== undefined;
}

/** Drops a table with its indexes and what is recorded about it. */
export function dropCollectionTable(db: DatabaseSync, table: string): void {
  db.exec(`DROP TABLE IF EXISTS ${table}`);
  db.prepare(`DELETE FROM ${DEFERRED} WHERE collection = ?`).run(table);
}

/** The read store's secondary indexes on the table (not the primary key's). */
function ownIndexes(db: DatabaseSync, table: string): { name: string; sql: string }[] {
  const prefix = indexName(table, '');
  return db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`)
    .all(table)
    .filter((row) => typeof row.name === 'string' && row.name.startsWith(prefix))
    .map((row) => ({ name: row.name as string, sql: String(row.sql) }));
}
