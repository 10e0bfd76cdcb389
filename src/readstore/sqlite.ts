import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import { positionFromText } from '../core/positions.ts';
import { assertCollectionSpec, assertLimit, assertWriteId, createCollectionRegistry, writePosition } from './collections.ts';
import { decodeCursor, encodeCursor, toSortKey } from './cursor.ts';
import type { Doc, FindOptions, ReadModelWrite, ReadStore } from './port.ts';
import { countQuery, findSegments, tableName } from './sqliteQuery.ts';
import type { Query } from './sqliteQuery.ts';
import { createCollectionTable, createIndexes, createStoreTables, deferIndexes, deferredIndexCheck } from './sqliteSchema.ts';

const BUSY_TIMEOUT_MS = 5_000;

type CollectionStatements = {
  put: StatementSync;
  insertIfAbsent: StatementSync;
  save: StatementSync;
  remove: StatementSync;
  get: StatementSync;
  getMany: StatementSync;
  clear: StatementSync;
};

/**
 * Read models in SQLite: one table per collection, rm_<name>(id, position, doc). position is the
 * zero-padded position of the last applied event (NULL after an unguarded save); doc is the JSON
 * document, or NULL for a tombstone that keeps an older replayed event from resurrecting it.
 * Every method runs synchronously, so no transaction ever spans an await.
 */
export function openSqliteReadStore(path: string, options: { autoCheckpoint?: boolean } = {}): ReadStore {
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;`);
  // False when another thread checkpoints the WAL (see core/sqliteCheckpointer.ts).
  if (options.autoCheckpoint === false) db.exec('PRAGMA wal_autocheckpoint = 0');
  createStoreTables(db);
  const hasDeferredIndexes = deferredIndexCheck(db);
  const registry = createCollectionRegistry();
  const byCollection = new Map<string, CollectionStatements>();
  const queries = new Map<string, StatementSync>();
  const setCheckpoint = db.prepare(
    'INSERT INTO checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position',
  );
  const getCheckpoint = db.prepare('SELECT position FROM checkpoints WHERE consumer = ?');
  const takeLease = db.prepare(
    'INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at ' +
      'WHERE leases.holder = excluded.holder OR leases.expires_at <= ? OR leases.holder = ?',
  );
  const readLease = db.prepare('SELECT holder, expires_at FROM leases WHERE name = ?');
  const dropLease = db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?');
  const clearCheckpoint = db.prepare('DELETE FROM checkpoints WHERE consumer = ?');
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  let closed = false;

  function transaction(work: () => void): void {
    begin.run();
    try {
      work();
      commit.run();
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }

  function statements(collection: string): CollectionStatements {
    const cached = byCollection.get(collection);
    if (cached) return cached;
    registry.indexesOf(collection); // throws for an undeclared collection
    const table = tableName(collection);
    const prepared: CollectionStatements = {
      put: db.prepare(
        `INSERT INTO ${table} (id, position, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET position = excluded.position, doc = excluded.doc ` +
          `WHERE ${table}.position IS NULL OR excluded.position > ${table}.position`,
      ),
      insertIfAbsent: db.prepare(`INSERT INTO ${table} (id, position, doc) VALUES (?, NULL, ?) ON CONFLICT (id) DO NOTHING`),
      save: db.prepare(
        `INSERT INTO ${table} (id, position, doc) VALUES (?, NULL, ?) ON CONFLICT (id) DO UPDATE SET position = NULL, doc = excluded.doc`,
      ),
      remove: db.prepare(`DELETE FROM ${table} WHERE id = ?`),
      get: db.prepare(`SELECT doc FROM ${table} WHERE id = ? AND doc IS NOT NULL`),
      getMany: db.prepare(`SELECT id, doc FROM ${table} WHERE id IN (SELECT value FROM json_each(?)) AND doc IS NOT NULL`),
      clear: db.prepare(`DELETE FROM ${table}`),
    };
    byCollection.set(collection, prepared);
    return prepared;
  }

  /** After a reset, the first query builds the indexes the rebuild went without. */
  function ensureIndexed(collection: string): void {
    const indexes = registry.indexSpecsOf(collection);
    if (hasDeferredIndexes(collection)) transaction(() => createIndexes(db, collection, indexes));
  }

  function run(query: Query): Record<string, unknown>[] {
    let statement = queries.get(query.sql);
    if (!statement) {
      statement = db.prepare(query.sql);
      queries.set(query.sql, statement);
    }
    return statement.all(...query.params);
  }

  function apply(write: ReadModelWrite): void {
    assertWriteId(write.collection, write.id, write.doc);
    const prepared = statements(write.collection);
    switch (write.kind) {
      case 'put':
        prepared.put.run(write.id, writePosition(write.position), write.doc === null ? null : JSON.stringify(write.doc));
        return;
      case 'insert_if_absent':
        prepared.insertIfAbsent.run(write.id, JSON.stringify(write.doc));
        return;
      default: {
        const unknown: never = write;
        throw new Error(`unknown read model write ${JSON.stringify(unknown)}`);
      }
    }
  }

  return {
    async ensureCollections(specs) {
      for (const spec of specs) assertCollectionSpec(spec);
      for (const spec of specs) registry.declare(spec);
      transaction(() => {
        for (const spec of specs) {
          // Every index declared for the collection so far: several declarations may share it.
          const indexes = registry.indexSpecsOf(spec.name);
          createCollectionTable(db, spec.name, indexes);
          if (!hasDeferredIndexes(spec.name)) createIndexes(db, spec.name, indexes);
        }
      });
    },

    async get<T extends Doc>(collection: string, id: string) {
      const row = statements(collection).get.get(id);
      return row ? (JSON.parse(row.doc as string) as T) : null;
    },

    async getMany<T extends Doc>(collection: string, ids: readonly string[]) {
      const rows = statements(collection).getMany.all(JSON.stringify(ids));
      const found = new Map(rows.map((row) => [row.id as string, row.doc as string]));
      return [...new Set(ids)].filter((id) => found.has(id)).map((id) => JSON.parse(found.get(id)!) as T);
    },

    async find<T extends Doc>(collection: string, options: FindOptions) {
      registry.assertQueryable(collection, options.filter, options.sort);
      assertLimit(options.limit);
      ensureIndexed(collection);
      const after = options.cursor === undefined ? null : decodeCursor(options.cursor);
      const rows: Record<string, unknown>[] = [];
      for (const segment of findSegments(collection, options, after)) {
        if (rows.length > options.limit) break;
        for (const row of run({ sql: segment.sql, params: [...segment.params, options.limit + 1 - rows.length] })) rows.push(row);
      }
      const page = rows.slice(0, options.limit);
      const last = page[page.length - 1];
      return {
        items: page.map((row) => JSON.parse(row.doc as string) as T),
        nextCursor: rows.length > options.limit ? encodeCursor({ key: toSortKey(last.sort_key), id: last.id as string }) : null,
      };
    },

    async count(collection, filter) {
      registry.assertQueryable(collection, filter);
      ensureIndexed(collection);
      return Number(run(countQuery(collection, filter))[0].n);
    },

    async commit(writes, checkpoint) {
      transaction(() => {
        for (const write of writes) apply(write);
        if (checkpoint) setCheckpoint.run(checkpoint.consumer, writePosition(checkpoint.position));
      });
    },

    async save(collection, doc) {
      statements(collection).save.run(doc.id, JSON.stringify(doc));
    },

    async remove(collection, id) {
      statements(collection).remove.run(id);
    },

    async acquireLease(name, holder, ttlMs, nowMs, options = {}) {
      return Number(takeLease.run(name, holder, nowMs + ttlMs, nowMs, options.replacing ?? null).changes) === 1;
    },

    async leaseHolder(name) {
      const row = readLease.get(name);
      return row ? { holder: row.holder as string, expiresAtMs: Number(row.expires_at) } : null;
    },

    async releaseLease(name, holder) {
      dropLease.run(name, holder);
    },

    async getCheckpoint(consumer) {
      const row = getCheckpoint.get(consumer);
      return row ? positionFromText(row.position as string) : null;
    },

    async reset(collections, consumers) {
      const cleared = collections.map((collection) => ({ collection, clear: statements(collection).clear }));
      transaction(() => {
        for (const { collection, clear } of cleared) {
          clear.run();
          deferIndexes(db, collection);
        }
        for (const consumer of consumers) clearCheckpoint.run(consumer);
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
