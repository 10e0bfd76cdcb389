import type { DatabaseSync } from 'node:sqlite';
import { decodeCursor } from '../../src/readstore/cursor.ts';
import type { FindOptions } from '../../src/readstore/port.ts';
import { findSegments, tableName } from '../../src/readstore/sqliteQuery.ts';

/** The SQLite query plan of each statement a find with these options runs (find's own SQL, from findSegments), on the collection's first table. */
export function findPlans(
  probe: DatabaseSync,
  collection: string,
  options: FindOptions,
): { sql: string; plan: string[] }[] {
  const after = options.cursor === undefined ? null : decodeCursor(options.cursor);
  return findSegments(tableName(collection), options, after).map(({ sql, params }) => ({
    sql,
    plan: probe
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...params, options.limit + 1)
      .map((row) => String(row.detail)),
  }));
}

/** What makes a page cost more as the collection grows: reading the whole table, or sorting the matches. */
export const slowSteps = (plan: readonly string[]): string[] =>
  plan.filter((step) => step.startsWith('SCAN ') || step.includes('USE TEMP B-TREE'));
