import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { systemClock, type Clock } from '../core/clock.ts';
import { createAppendListeners } from './appendListeners.ts';
import {
  assertValidExpected,
  findStoredId,
  planAppend,
  type AppendLookup,
  type StreamHead,
} from './appendPlan.ts';
import { createCommitGroups, type Settled } from './commitGroups.ts';
import {
  StreamNotFoundError,
  streamCategory,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type StoredEvent,
} from './port.ts';
import { readAllRequest, readStreamRequest } from './readOptions.ts';
import { DEFAULT_BUSY_TIMEOUT_MS, prepareEventsFile } from './sqliteSchema.ts';
import { sqliteStoreId } from './sqliteStoreId.ts';

export type SqliteEventStoreOptions = {
  /** Stamps createdAt; defaults to the system clock. */
  clock?: Clock;
  busyTimeoutMs?: number;
  /** False when another thread checkpoints the WAL (see core/sqliteCheckpointer.ts). */
  autoCheckpoint?: boolean;
};

export interface SqliteEventStore extends EventStore {
  readonly path: string;
}

const COLUMNS = 'position, id, stream, revision, type, data, metadata, created_at';
type Encoded = readonly [id: string, type: string, data: string, metadata: string];
type AppendRequest = {
  stream: string;
  category: string;
  events: readonly NewEvent[];
  encoded: readonly Encoded[];
  expected: ExpectedRevision;
  createdAt: string;
};
type Appended = { result: AppendResult; written: boolean };
type Row = [
  position: bigint,
  id: string,
  stream: string,
  revision: bigint,
  type: string,
  data: string,
  metadata: string,
  createdAt: string,
];

/**
 * The embedded event log: one SQLite file in WAL mode. Other connections and processes (the read
 * store, the admin CLI) may use the same file; writers queue on SQLite's write lock.
 */
export function openSqliteEventStore(
  path: string,
  options: SqliteEventStoreOptions = {},
): SqliteEventStore {
  const clock = options.clock ?? systemClock;
  // readBigInts: every INTEGER comes back as a bigint, so positions and revisions never pass through a double.
  const db = new DatabaseSync(path, {
    readBigInts: true,
    timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
  });
  prepareEventsFile(db);
  if (options.autoCheckpoint === false) db.exec('PRAGMA wal_autocheckpoint = 0');
  const rowsOf = (sql: string): StatementSync => {
    const statement = db.prepare(sql);
    statement.setReturnArrays(true);
    return statement;
  };
  const sql = {
    beginWrite: db.prepare('BEGIN IMMEDIATE'),
    beginRead: db.prepare('BEGIN'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT append'),
    release: db.prepare('RELEASE append'),
    rollbackToSavepoint: db.prepare('ROLLBACK TO append'),
    head: db.prepare(
      'SELECT revision, position FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1',
    ),
    slice: db.prepare(
      'SELECT id, position FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?',
    ),
    locate: db.prepare('SELECT stream, revision FROM events WHERE id = ?'),
    lastPosition: db.prepare('SELECT max(position) AS position FROM events'),
    insert: db.prepare(
      'INSERT INTO events (position, id, stream, category, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    // Inserts at revision ?4 only if the stream's last revision is ?4 - 1 (-1: no events yet).
    insertAtRevision: db.prepare(`
      INSERT INTO events (position, id, stream, category, revision, type, data, metadata, created_at)
      SELECT (SELECT coalesce(max(position), -1) + 1 FROM events), ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
      WHERE coalesce((SELECT revision FROM events WHERE stream = ?2 ORDER BY revision DESC LIMIT 1), -1) = ?4 - 1
      RETURNING position`),
    // The same inside a group's transaction, which knows the next position: no subquery for it, no RETURNING.
    insertAtRevisionAndPosition: db.prepare(`
      INSERT INTO events (position, id, stream, category, revision, type, data, metadata, created_at)
      SELECT ?9, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
      WHERE coalesce((SELECT revision FROM events WHERE stream = ?2 ORDER BY revision DESC LIMIT 1), -1) = ?4 - 1`),
    readStream: rowsOf(
      `SELECT ${COLUMNS} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
    ),
    readAll: rowsOf(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`),
    // A walk along the primary key from the reader's position, keeping the asked-for categories:
    // consumers read from near the head, so this costs what they have to cover anyway, and it
    // spares every append the upkeep of a category index.
    readCategories: rowsOf(
      `SELECT ${COLUMNS} FROM events WHERE position > ? AND category IN (SELECT value FROM json_each(?)) ORDER BY position LIMIT ?`,
    ),
  };
  const lookup: AppendLookup = {
    head: (stream) => sql.head.get(stream) as StreamHead | undefined,
    slice: (stream, fromRevision, count) =>
      sql.slice.all(stream, fromRevision, count) as { id: string; position: bigint }[],
    locate: (id) => sql.locate.get(id) as { stream: string; revision: bigint } | undefined,
  };
  const lastPosition = (): bigint => (sql.lastPosition.get()?.position as bigint | null) ?? -1n;
  const listeners = createAppendListeners();

  function inTransaction<T>(begin: StatementSync, work: () => T): T {
    begin.run();
    try {
      const result = work();
      sql.commit.run();
      return result;
    } catch (error) {
      if (db.isTransaction) sql.rollback.run();
      throw error;
    }
  }

  /**
   * The common case, one event at an exact expected revision, as a single guarded statement: on
   * its own, its implicit transaction takes the write lock like BEGIN IMMEDIATE, without the round
   * trips for BEGIN, the head check and COMMIT. Undefined when the stream is not as expected; the
   * full path then tells a conflict from a retry.
   */
  function appendOneAt(request: AppendRequest, position?: bigint): AppendResult | undefined {
    const { expected, stream, category, createdAt } = request;
    if (request.events.length !== 1 || expected === 'stream_exists') return undefined;
    const revision = expected === 'no_stream' ? 0n : expected + 1n;
    const [id, type, data, metadata] = request.encoded[0];
    if (position !== undefined) {
      const { changes } = sql.insertAtRevisionAndPosition.run(
        id,
        stream,
        category,
        revision,
        type,
        data,
        metadata,
        createdAt,
        position,
      );
      return Number(changes) === 1 ? { nextRevision: revision, position } : undefined;
    }
    const row = sql.insertAtRevision.get(
      id,
      stream,
      category,
      revision,
      type,
      data,
      metadata,
      createdAt,
    );
    return row && { nextRevision: revision, position: row.position as bigint };
  }

  /** Inside a write transaction. */
  function appendWithin(request: AppendRequest): Appended {
    const { stream, category, createdAt } = request;
    const plan = planAppend(lookup, stream, request.events, request.expected);
    if (plan.kind === 'done') return { result: plan.result, written: false };
    let position = lastPosition();
    let revision = plan.firstRevision - 1n;
    for (const [id, type, data, metadata] of request.encoded) {
      sql.insert.run(++position, id, stream, category, ++revision, type, data, metadata, createdAt);
    }
    return { result: { nextRevision: revision, position }, written: true };
  }

  function appendAlone(request: AppendRequest): Appended {
    const appended = appendOneAt(request);
    return appended
      ? { result: appended, written: true }
      : inTransaction(sql.beginWrite, () => appendWithin(request));
  }

  /** One member of a group, inside the group's transaction, at `position`; a failure undoes only its own rows. */
  function appendInGroup(request: AppendRequest, position: bigint): Appended {
    const appended = appendOneAt(request, position); // one statement: a failure rolls back that statement alone
    if (appended) return { result: appended, written: true };
    if (request.events.length === 1) return appendWithin(request);
    sql.savepoint.run();
    try {
      const outcome = appendWithin(request);
      sql.release.run();
      return outcome;
    } catch (error) {
      sql.rollbackToSavepoint.run();
      sql.release.run();
      throw error;
    }
  }

  /** The unique-id error of a retried event id, told apart after the rows of that append are gone. */
  function explained(error: unknown, request: AppendRequest): unknown {
    return isUniqueIdViolation(error) ? (findStoredId(lookup, request.events) ?? error) : error;
  }

  function settle(
    request: AppendRequest,
    work: (request: AppendRequest) => Appended,
  ): Settled<Appended> {
    try {
      return { ok: true, value: work(request) };
    } catch (error) {
      return { ok: false, error: explained(error, request) };
    }
  }

  /** Tells the listeners once per commit, with the written events at hand (gapless: failed members wrote nothing). */
  function notifyWritten(
    requests: readonly AppendRequest[],
    outcomes: readonly Settled<Appended>[],
  ): void {
    const written = requests.flatMap((request, index) => {
      const outcome = outcomes[index];
      return outcome.ok && outcome.value.written ? [{ request, result: outcome.value.result }] : [];
    });
    if (written.length === 0) return;
    let events: StoredEvent[] | null = null;
    const appended = () =>
      (events ??= written.flatMap(({ request, result }) => storedEventsOf(request, result)));
    const { request: first, result: firstResult } = written[0];
    const previous = firstResult.position - BigInt(first.encoded.length); // gapless, and the write lock was held
    listeners.notify(written[written.length - 1].result.position, appended, previous);
  }

  /** Commits the requests (a group in one transaction) and settles each on its own. */
  function commit(requests: AppendRequest[]): Settled<Appended>[] {
    const outcomes =
      requests.length === 1
        ? [settle(requests[0], appendAlone)]
        : inTransaction(sql.beginWrite, () => {
            const settled: Settled<Appended>[] = [];
            let next = lastPosition() + 1n; // the write lock is held: nobody else appends meanwhile
            for (const request of requests) {
              const outcome = settle(request, (member) => appendInGroup(member, next));
              // Some errors (a full disk, I/O) make SQLite roll the whole transaction back: the members
              // before this one are undone too, and the ones after must not run outside a transaction.
              if (!db.isTransaction)
                throw outcome.ok ? new Error('SQLite rolled back the group commit') : outcome.error;
              if (outcome.ok && outcome.value.written) next = outcome.value.result.position + 1n;
              settled.push(outcome);
            }
            return settled;
          });
    notifyWritten(requests, outcomes);
    return outcomes;
  }
  const groups = createCommitGroups(commit);

  function readRows(statement: StatementSync, ...params: (string | bigint | number)[]): Row[] {
    return statement.all(...params) as unknown as Row[];
  }

  return {
    path,

    async append(stream, events, expected, options = {}) {
      assertValidExpected(expected);
      // Serialise before taking the write lock: a bad payload fails here and the lock is held briefly.
      const encoded = events.map(
        (event) =>
          [
            event.id,
            event.type,
            JSON.stringify(event.data),
            JSON.stringify(event.metadata),
          ] as const,
      );
      const request: AppendRequest = {
        stream,
        category: streamCategory(stream),
        events,
        encoded,
        expected,
        createdAt: clock.now(),
      };
      if (options.shareCommit) return (await groups.submit(request)).result;
      const [outcome] = commit([request]);
      if (!outcome.ok) throw outcome.error;
      return outcome.value.result;
    },

    async readStream(stream, options) {
      const { fromRevision, maxCount } = readStreamRequest(options);
      const read = () => readRows(sql.readStream, stream, fromRevision, maxCount ?? -1);
      const rows = read();
      if (rows.length > 0) return rows.map(toStoredEvent);
      // "No rows" and "no stream" must describe the same moment, so check both in one snapshot.
      const { again, exists } = inTransaction(sql.beginRead, () => ({
        again: read(),
        exists: lookup.head(stream) !== undefined,
      }));
      if (!exists) throw new StreamNotFoundError(stream);
      return again.map(toStoredEvent);
    },

    async readAll(options) {
      const { after, maxCount, categories } = readAllRequest(options);
      if (categories === undefined)
        return readRows(sql.readAll, after, maxCount).map(toStoredEvent);
      return readRows(sql.readCategories, after, JSON.stringify(categories), maxCount).map(
        toStoredEvent,
      );
    },

    async headPosition() {
      return lastPosition();
    },

    onAppend(listener) {
      return listeners.add(listener);
    },

    async storeId(options) {
      return sqliteStoreId(db, options);
    },

    async close() {
      groups.flush();
      if (db.isOpen) db.close();
    },
  };
}

function toStoredEvent(row: Row): StoredEvent {
  return {
    position: row[0],
    id: row[1],
    stream: row[2],
    revision: row[3],
    type: row[4],
    data: JSON.parse(row[5]),
    metadata: JSON.parse(row[6]),
    createdAt: row[7],
  };
}

/** The events of a written append as a read of the log returns them (data and metadata parsed back from their JSON). */
function storedEventsOf(request: AppendRequest, result: AppendResult): StoredEvent[] {
  const last = request.encoded.length - 1;
  return request.encoded.map(([id, type, data, metadata], index) => ({
    position: result.position - BigInt(last - index),
    id,
    stream: request.stream,
    revision: result.nextRevision - BigInt(last - index),
    type,
    data: JSON.parse(data),
    metadata: JSON.parse(metadata),
    createdAt: request.createdAt,
  }));
}

function isUniqueIdViolation(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { errcode?: number }).errcode === 2067 &&
    error.message.includes('events.id')
  );
}
