import type { SQLInputValue } from 'node:sqlite';
import type { CursorPosition } from './cursor.ts';
import type { Filter, FindOptions } from './port.ts';

/**
 * SQL text for find and count. Field names have been checked against the declared indexes before
 * they get here; every value is a bound parameter. An indexed field is read from its generated
 * column (see sqliteSchema.ts), which the indexes are built on, so no query runs json_extract.
 */
export type Query = { sql: string; params: SQLInputValue[] };

/** The table a collection starts in; a rebuild swapped in later gives it another (see sqliteSchema.ts). */
export const tableName = (collection: string): string => `rm_${collection}`;

export const indexName = (table: string, index: string): string => `${table}/${index}`;

/** The generated column holding an indexed field's value. */
export const columnName = (field: string): string => `ix_${field}`;

export const fieldExpression = (field: string): string =>
  field === 'id' ? 'id' : `"${columnName(field)}"`;

/**
 * Keyset pagination as one or two index-friendly segments, run in order until the page is full.
 * SQLite sorts NULL (and a missing field) first ascending and last descending; a single WHERE that
 * also admitted the NULL block would need an OR the index cannot seek on, so that block is its own
 * segment.
 */
export function findSegments(
  table: string,
  options: FindOptions,
  after: CursorPosition | null,
): Query[] {
  const { field, direction } = options.sort ?? { field: 'id', direction: 'asc' as const };
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  const expr = fieldExpression(field);
  const where = whereFilter(options.filter);
  // Inside the NULL block the key is constant: ordering by id alone lets the index deliver the order.
  const segment = (
    clause: string | null,
    params: SQLInputValue[],
    byIdOnly = field === 'id',
  ): Query => ({
    sql:
      `SELECT id, doc, ${expr} AS sort_key FROM ${table} WHERE ${[...where.clauses, ...(clause ? [clause] : [])].join(' AND ')} ` +
      `ORDER BY ${byIdOnly ? '' : `${expr} ${dir}, `}id ${dir} LIMIT ?`,
    params: [...where.params, ...params],
  });
  if (!after) return [segment(null, [])];
  const next = direction === 'asc' ? '>' : '<';
  if (field === 'id') return [segment(`id ${next} ?`, [after.id])];
  const key = typeof after.key === 'boolean' ? (after.key ? 1 : 0) : after.key;
  const nullBlockAfter = segment(`${expr} IS NULL AND id ${next} ?`, [after.id], true);
  if (key === null)
    return direction === 'asc'
      ? [nullBlockAfter, segment(`${expr} IS NOT NULL`, [])]
      : [nullBlockAfter];
  const rangeAfter = segment(`${expr} ${next}= ? AND (${expr} ${next} ? OR id ${next} ?)`, [
    key,
    key,
    after.id,
  ]);
  return direction === 'asc' ? [rangeAfter] : [rangeAfter, segment(`${expr} IS NULL`, [], true)];
}

export function countQuery(table: string, filter: Filter | undefined): Query {
  const where = whereFilter(filter);
  return {
    sql: `SELECT count(*) AS n FROM ${table} WHERE ${where.clauses.join(' AND ')}`,
    params: where.params,
  };
}

type Where = { clauses: string[]; params: SQLInputValue[] };

function whereFilter(filter: Filter | undefined): Where {
  const entries = Object.entries(filter ?? {});
  // Tombstones are never returned. A field compared with a value already excludes them (a NULL
  // doc's fields are NULL), and leaving the check out spares a count reading the text of every
  // matching row's document (the board totals count after every projection batch).
  const where: Where = {
    clauses: entries.some(([, value]) => value !== null) ? [] : ['doc IS NOT NULL'],
    params: [],
  };
  for (const [field, value] of entries) {
    const expr = fieldExpression(field);
    if (value === null) {
      where.clauses.push(`${expr} IS NULL`); // null or missing, as in MongoDB
    } else if (typeof value === 'boolean') {
      // json_extract reads true/false as 1/0: the type check keeps {flag: true} from matching {flag: 1}.
      where.clauses.push(`${expr} = ? AND json_type(doc, '$.${field}') = '${value}'`);
      where.params.push(value ? 1 : 0);
    } else if (typeof value === 'number') {
      where.clauses.push(`${expr} = ? AND json_type(doc, '$.${field}') IN ('integer', 'real')`);
      where.params.push(value);
    } else {
      where.clauses.push(`${expr} = ?`);
      where.params.push(value);
    }
  }
  return where;
}
