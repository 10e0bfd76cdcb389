import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StatementSync } from 'node:sqlite';
import { positionFromText } from '../core/positions.ts';
import { isSqliteBusy } from '../core/sqliteBusy.ts';
import {
  assertCollectionSpec,
  assertLimit,
  assertWriteId,
  createCollectionRegistry,
  writePosition,
} from './collections.ts';
import { decodeCursor, encodeCursor, toSortKey } from './cursor.ts';
import type { Doc, FindOptions, ReadModelWrite, ReadStore } from './port.ts';
import { countQuery, findSegments } from './sqliteQuery.ts';
import type { Query } from './sqliteQuery.ts';
import {
  createCollectionTable,
  createIndexes,
  createIndexIfMissing,
  createStoreTables,
  deferIndexes,
  deferredIndexCheck,
  tableExists,
} from './sqliteSchema.ts';
import { createTableSwaps } from './sqliteSwap.ts';
import { createTallyChanges, type TallyAccess } from './sqliteTally.ts';

const BUSY_TIMEOUT_MS = 5_000;
/** Shaped like SQLite's own busy error, so callers that wait and retry on SQLITE_BUSY recognise it. */
const lockedFor = (ms: number) =>
  Object.assign(
    new Error(
      `database is locked: another process held the read store's write lock for ${Math.round(ms / 1000)} s`,
    ),
    { code: 'ERR_SQLITE_ERROR', errcode: 5, errstr: 'database is locked' },
  );

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
export function openSqliteReadStore(
  path: string,
  options: { autoCheckpoint?: boolean } = {},
): ReadStore {
  const db = new DatabaseSync(path);
  db.exec(
    `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;`,
  );
  // False when another thread checkpoints the WAL (see core/sqliteCheckpointer.ts).
  if (options.autoCheckpoint === false) db.exec('PRAGMA wal_autocheckpoint = 0');
  createStoreTables(db);
  const hasDeferredIndexes = deferredIndexCheck(db);
  const swaps = createTableSwaps(db);
  const registry = createCollectionRegistry();
  const byCollection = new Map<string, CollectionStatements>();
  const queries = new Map<string, StatementSync>();
  // Only forwards: replicas sharing a read store each commit their own progress. Positions are
  // zero-padded text of one width, so text order is number order.
  const setCheckpoint = db.prepare(
    'INSERT INTO checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO UPDATE SET position = excluded.position ' +
      'WHERE excluded.position > checkpoints.position',
  );
  const getCheckpoint = db.prepare('SELECT position FROM checkpoints WHERE consumer = ?');
  const takeLease = db.prepare(
    'INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at ' +
      'WHERE leases.holder = excluded.holder OR leases.expires_at <= ? OR leases.holder = ?',
  );
  const readLease = db.prepare('SELECT holder, expires_at FROM leases WHERE name = ?');
  const dropLease = db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?');
  const clearCheckpoint = db.prepare('DELETE FROM checkpoints WHERE consumer = ?');
  const keepEarliestCheckpoint = db.prepare(
    'INSERT INTO checkpoints (consumer, position) VALUES (?, ?) ON CONFLICT (consumer) DO NOTHING',
  );
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const waitWhenBusy = db.prepare(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const failWhenBusy = db.prepare('PRAGMA busy_timeout = 0');
  let closed = false;

  /** BEGIN IMMEDIATE if no other connection holds the write lock; false (at once) if one does. */
  function tryBegin(): boolean {
    failWhenBusy.run();
    try {
      begin.run();
      return true;
    } catch (error) {
      if (isSqliteBusy(error)) return false;
      throw error;
    } finally {
      waitWhenBusy.run();
    }
  }

  /**
   * The write transactions of commit and acquireLease. While another process holds the write
   * lock (a rebuild from the CLI commits thousands of documents), waiting in SQLite's busy
   * handler would block this process's event loop and every request it serves; instead the lock
   * is tried again after a timer, for up to the busy timeout. The transaction itself still runs
   * without an await; a statement that finds its table swapped out is run once more.
   */
  async function writeTransaction<T>(work: () => T): Promise<T> {
    const started = Date.now();
    for (let attempt = 0, waitMs = 1; ; ) {
      if (!tryBegin()) {
        if (Date.now() - started > BUSY_TIMEOUT_MS) throw lockedFor(Date.now() - started);
        await sleep(waitMs);
        waitMs = Math.min(2 * waitMs, 20);
        continue;
      }
      try {
        const result = work();
        commit.run();
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        if (attempt++ > 0 || !swaps.tablesChanged(error)) throw error;
        forgetStatements();
      }
    }
  }

  /** Blocking: only for the first query after a reset, which cannot wait on a timer (queries are synchronous). */
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

  function forgetStatements(): void {
    byCollection.clear();
    queries.clear();
  }

  /**
   * Runs the work; when a table it used was swapped out by another process (an online rebuild
   * from the CLI), learns the collections' current tables and runs it once more.
   */
  function current<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (!swaps.tablesChanged(error)) throw error;
      forgetStatements();
      return work();
    }
  }

  function statements(collection: string): CollectionStatements {
    const cached = byCollection.get(collection);
    if (cached) return cached;
    registry.indexesOf(collection); // throws for an undeclared collection
    const table = swaps.tableOf(collection);
    const prepared: CollectionStatements = {
      put: db.prepare(
        `INSERT INTO ${table} (id, position, doc) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET position = excluded.position, doc = excluded.doc ` +
          `WHERE ${table}.position IS NULL OR excluded.position > ${table}.position`,
      ),
      insertIfAbsent: db.prepare(
        `INSERT INTO ${table} (id, position, doc) VALUES (?, NULL, ?) ON CONFLICT (id) DO NOTHING`,
      ),
      save: db.prepare(
        `INSERT INTO ${table} (id, position, doc) VALUES (?, NULL, ?) ON CONFLICT (id) DO UPDATE SET position = NULL, doc = excluded.doc`,
      ),
      remove: db.prepare(`DELETE FROM ${table} WHERE id = ?`),
      get: db.prepare(`SELECT doc FROM ${table} WHERE id = ? AND doc IS NOT NULL`),
      getMany: db.prepare(
        `SELECT id, doc FROM ${table} WHERE id IN (SELECT value FROM json_each(?)) AND doc IS NOT NULL`,
      ),
      clear: db.prepare(`DELETE FROM ${table}`),
    };
    byCollection.set(collection, prepared);
    return prepared;
  }

  /** After a reset, the first query builds the indexes the rebuild went without. */
  function ensureIndexed(collection: string): void {
    const indexes = registry.indexSpecsOf(collection);
    const table = swaps.tableOf(collection);
    if (!hasDeferredIndexes(table)) return;
    // One index a transaction: each holds the write lock for one sort, not all of them.
    transaction(() => createCollectionTable(db, table, indexes));
    for (const index of indexes) transaction(() => createIndexIfMissing(db, table, index));
    transaction(() => createIndexes(db, table, indexes));
  }

  function cachedStatement(sql: string): StatementSync {
    let statement = queries.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      queries.set(sql, statement);
    }
    return statement;
  }

  function run(query: Query): Record<string, unknown>[] {
    return cachedStatement(query.sql).all(...query.params);
  }

  const tallyAccess: TallyAccess = {
    prepare: cachedStatement,
    tableOf(collection) {
      registry.indexesOf(collection); // throws for an undeclared collection
      return swaps.tableOf(collection);
    },
    assertCounted(source, target) {
      registry.assertQueryable(source, { [target.groupBy]: null, [target.countBy]: null });
    },
  };

  function apply(write: ReadModelWrite, tallies: ReturnType<typeof createTallyChanges>): void {
    assertWriteId(write.collection, write.id, write.doc);
    const statement = statements(write.collection);
    switch (write.kind) {
      case 'put': {
        const counted = write.countedIn ?? [];
        const before = tallies.storedSlots(write, counted);
        const { changes } = statement.put.run(
          write.id,
          writePosition(write.position),
          write.doc === null ? null : JSON.stringify(write.doc),
        );
        // No change: the position guard refused it (an equal or newer document is stored).
        if (Number(changes) > 0) tallies.landed(write, counted, before);
        return;
      }
      case 'insert_if_absent':
        statement.insertIfAbsent.run(write.id, JSON.stringify(write.doc));
        return;
      default: {
        const unknown: never = write;
        throw new Error(`unknown read model write ${JSON.stringify(unknown)}`);
      }
    }
  }

  return {
    talliesInCommit: true,

    async ensureCollections(specs) {
      for (const spec of specs) assertCollectionSpec(spec);
      for (const spec of specs) registry.declare(spec);
      await writeTransaction(() => {
        for (const spec of specs) {
          // Every index declared for the collection so far: several declarations may share it.
          const indexes = registry.indexSpecsOf(spec.name);
          const table = swaps.tableOf(spec.name);
          const created = !tableExists(db, table);
          createCollectionTable(db, table, indexes);
          if (!hasDeferredIndexes(table)) createIndexes(db, table, indexes);
          // A new, empty collection is built by this definition; an existing one keeps what it recorded.
          if (created && spec.version) swaps.record(spec.name, table, spec.version);
        }
      });
    },

    onlineRebuilds: {
      async versionOf(collection) {
        return swaps.versionOf(collection);
      },
      async stage(collection, staging, version) {
        const indexes = registry.indexSpecsOf(collection);
        await writeTransaction(() => swaps.stage(staging, version, indexes));
        byCollection.delete(staging);
        registry.declare({ name: staging, indexes });
      },
      async swapIn(pairs, checkpoints) {
        for (const { collection, staging } of pairs) {
          registry.indexesOf(collection);
          registry.indexesOf(staging);
        }
        let swapped = false;
        await writeTransaction(() => {
          const built = getCheckpoint.get(checkpoints.built)?.position as string | undefined;
          const live = getCheckpoint.get(checkpoints.live)?.position as string | undefined;
          // Zero-padded text: text order is numeric order.
          if (live !== undefined && (built === undefined || built < live)) return;
          for (const pair of pairs) swaps.swap(pair.collection, pair.staging);
          if (built !== undefined) keepEarliestCheckpoint.run(checkpoints.catchUp, built);
          clearCheckpoint.run(checkpoints.built);
          swapped = true;
        });
        if (swapped) forgetStatements();
        return swapped;
      },
    },

    async get<T extends Doc>(collection: string, id: string) {
      const row = current(() => statements(collection).get.get(id));
      return row ? (JSON.parse(row.doc as string) as T) : null;
    },

    async getMany<T extends Doc>(collection: string, ids: readonly string[]) {
      const rows = current(() => statements(collection).getMany.all(JSON.stringify(ids)));
      const found = new Map(rows.map((row) => [row.id as string, row.doc as string]));
      return [...new Set(ids)]
        .filter((id) => found.has(id))
        .map((id) => JSON.parse(found.get(id)!) as T);
    },

    async find<T extends Doc>(collection: string, options: FindOptions) {
      registry.assertQueryable(collection, options.filter, options.sort);
      assertLimit(options.limit);
      const after = options.cursor === undefined ? null : decodeCursor(options.cursor);
      const rows = current(() => {
        ensureIndexed(collection);
        const found: Record<string, unknown>[] = [];
        for (const segment of findSegments(swaps.tableOf(collection), options, after)) {
          if (found.length > options.limit) break;
          for (const row of run({
            sql: segment.sql,
            params: [...segment.params, options.limit + 1 - found.length],
          }))
            found.push(row);
        }
        return found;
      });
      const page = rows.slice(0, options.limit);
      const last = page[page.length - 1];
      return {
        items: page.map((row) => JSON.parse(row.doc as string) as T),
        nextCursor:
          rows.length > options.limit
            ? encodeCursor({ key: toSortKey(last.sort_key), id: last.id as string })
            : null,
      };
    },

    async count(collection, filter) {
      registry.assertQueryable(collection, filter);
      return current(() => {
        ensureIndexed(collection);
        return Number(run(countQuery(swaps.tableOf(collection), filter))[0].n);
      });
    },

    async commit(writes, checkpoint) {
      await writeTransaction(() => {
        // Made afresh for each attempt: a retried transaction starts again from the stored rows.
        const tallies = createTallyChanges(tallyAccess);
        for (const write of writes) apply(write, tallies);
        tallies.write();
        if (checkpoint) setCheckpoint.run(checkpoint.consumer, writePosition(checkpoint.position));
      });
    },

    async save(collection, doc) {
      current(() => statements(collection).save.run(doc.id, JSON.stringify(doc)));
    },

    async remove(collection, id) {
      current(() => statements(collection).remove.run(id));
    },

    async acquireLease(name, holder, ttlMs, nowMs, options = {}) {
      return writeTransaction(
        () =>
          Number(
            takeLease.run(name, holder, nowMs + ttlMs, nowMs, options.replacing ?? null).changes,
          ) === 1,
      );
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
      const cleared = collections.map((collection) => ({
        table: swaps.tableOf(collection),
        clear: statements(collection).clear,
      }));
      await writeTransaction(() => {
        for (const { table, clear } of cleared) {
          clear.run();
          deferIndexes(db, table);
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
