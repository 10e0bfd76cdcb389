import type { DatabaseSync } from 'node:sqlite';

/**
 * How long a write waits for another connection's write transaction (the admin CLI, the read
 * store) before failing with "database is locked". The wait blocks this thread, so every
 * connection on the file keeps its write transactions short.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/**
 * WAL pages written before a checkpoint copies them into the database file. Each checkpoint
 * fsyncs; SQLite's default (1000 pages) costs a checkpoint every ~250 single-event appends.
 */
const WAL_AUTOCHECKPOINT_PAGES = 4_000;

/**
 * Position is the rowid, assigned by the writer as max(position) + 1 inside its write transaction
 * (never AUTOINCREMENT, which leaves gaps on rollback), so positions are gapless from 0 and commit
 * order equals position order for every connection on the file.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position   INTEGER PRIMARY KEY,
    id         TEXT    NOT NULL UNIQUE,
    stream     TEXT    NOT NULL,
    category   TEXT    NOT NULL,
    revision   INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    data       TEXT    NOT NULL,
    metadata   TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    UNIQUE (stream, revision)
  ) STRICT;
  DROP INDEX IF EXISTS events_by_category;
`;

export function prepareEventsFile(db: DatabaseSync): void {
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    -- 32 MB: a group commit inserts dozens of random event ids, and their index pages should be
    -- at hand (POST /topics +15-30% against the 2 MB default; single appends the same either way).
    PRAGMA cache_size = -32000;
    PRAGMA mmap_size = 268435456; -- reads map the file instead of copying pages through read()
    PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES};
    ${SCHEMA}
  `);
}
