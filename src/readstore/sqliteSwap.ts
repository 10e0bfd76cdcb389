import { randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { IndexSpec } from './port.ts';
import { tableName } from './sqliteQuery.ts';
import {
  createCollectionTable,
  deferIndexes,
  dropCollectionTable,
  TABLES,
} from './sqliteSchema.ts';

type Entry = { table: string; version: string | null };

/**
 * Which table holds each collection. A collection starts in rm_<name>; an online rebuild fills a
 * staged table beside it and the swap makes that table the collection's in one transaction,
 * dropping the old one. Another process learns of the swap when its next statement finds its table
 * gone ("no such table"): it reads the map again and runs the statement once more.
 */
export function createTableSwaps(db: DatabaseSync) {
  const readAll = db.prepare(`SELECT collection, table_name, version FROM ${TABLES}`);
  const upsert = db.prepare(
    `INSERT INTO ${TABLES} (collection, table_name, version) VALUES (?, ?, ?) ON CONFLICT (collection) DO UPDATE SET table_name = excluded.table_name, version = excluded.version`,
  );
  const forget = db.prepare(`DELETE FROM ${TABLES} WHERE collection = ?`);
  const readVersion = db.prepare(`SELECT version FROM ${TABLES} WHERE collection = ?`);
  let tables = load();
  // The staged tables this process made, by staging name.
  const stagedHere = new Map<string, string>();

  function load(): Map<string, Entry> {
    return new Map(
      readAll
        .all()
        .map((row) => [
          row.collection as string,
          { table: row.table_name as string, version: row.version as string | null },
        ]),
    );
  }

  const tableOf = (collection: string): string =>
    tables.get(collection)?.table ?? tableName(collection);

  function record(collection: string, table: string, version: string | null): void {
    upsert.run(collection, table, version);
    tables.set(collection, { table, version });
  }

  return {
    tableOf,
    record,
    versionOf(collection: string): string | null {
      return (readVersion.get(collection)?.version as string | null | undefined) ?? null;
    },
    /** Must run inside a write transaction. A fresh table for `staging`, its indexes deferred to the end of the build. */
    stage(staging: string, version: string, indexes: readonly IndexSpec[]): void {
      tables = load();
      if (tables.has(staging)) dropCollectionTable(db, tableOf(staging));
      const table = `${tableName(staging)}_${randomBytes(4).toString('hex')}`;
      createCollectionTable(db, table, indexes);
      deferIndexes(db, table);
      record(staging, table, version);
      stagedHere.set(staging, table);
    },
    /** Must run inside a write transaction. */
    swap(collection: string, staging: string): void {
      tables = load();
      const staged = tables.get(staging);
      // Only the copy this process filled: another stage since (this process stalled past its rebuild lease) replaced it.
      if (!staged || staged.table !== stagedHere.get(staging))
        throw new Error(
          `the staged copy of ${collection} is not the one this rebuild filled: another rebuild staged it since`,
        );
      dropCollectionTable(db, tableOf(collection));
      record(collection, staged.table, staged.version);
      forget.run(staging);
      tables.delete(staging);
      stagedHere.delete(staging);
    },
    /** True when the error is a table swapped out by another process and the map has changed since. */
    tablesChanged(error: unknown): boolean {
      if (
        !(error instanceof Error) ||
        !/no such table: rm_/.test(error.message) ||
        db.isTransaction
      )
        return false;
      const before = JSON.stringify([...tables]);
      tables = load();
      return JSON.stringify([...tables]) !== before;
    },
  };
}
