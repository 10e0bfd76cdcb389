import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { RateLimiterMemory, RateLimiterMongo, RateLimiterSQLite } from 'rate-limiter-flexible';
import type { Config } from '../../core/config.ts';
import type { MongoConnection } from '../../readstore/mongo.ts';
import { SIGN_IN_LIMITS, type SignInThrottle } from './signIn.ts';

export type OpenedSignInThrottle = { throttle: SignInThrottle; close(): Promise<void> };

/** Beside the embedded store in DATA_DIR: counters only, never backed up (losing them forgets a window of attempts). */
export const SIGN_IN_THROTTLE_FILE = 'sign-in-throttle.sqlite';
const LIMITS = [
  ['address', SIGN_IN_LIMITS.perAddress],
  ['pair', SIGN_IN_LIMITS.perPair],
] as const;
const CLEAR_EXPIRED_EVERY_MS = 5 * 60_000;

/**
 * The sign-in counters in the shared store, so every process on it counts the same attempts: a
 * SQLite file in DATA_DIR on the embedded default (processes sharing a DATA_DIR share it), the read
 * store's MongoDB database when MONGODB_URL is set (replicas), through the read store's own
 * connection, which the platform closes. If the store stops answering, a process falls back to
 * its own memory counters rather than refusing every sign-in (rate-limiter-flexible's insurance).
 */
export async function openSignInThrottle(
  config: Pick<Config, 'DATA_DIR'>,
  mongo: MongoConnection | null,
): Promise<OpenedSignInThrottle> {
  const duration = SIGN_IN_LIMITS.windowSeconds;
  const insurance = (points: number) => new RateLimiterMemory({ points, duration });
  if (mongo) {
    const [address, pair] = LIMITS.map(
      ([name, points]) =>
        new RateLimiterMongo({
          storeClient: mongo.client,
          dbName: mongo.dbName,
          tableName: 'sign_in_throttle',
          keyPrefix: `sign-in-${name}`,
          points,
          duration,
          insuranceLimiter: insurance(points),
        }),
    );
    return { throttle: { address, pair }, close: async () => {} };
  }
  const db = new DatabaseSync(join(config.DATA_DIR, SIGN_IN_THROTTLE_FILE), { timeout: 5000 });
  db.exec('PRAGMA journal_mode = WAL');
  // The tables are made here and expired rows cleared below, not by the limiter: it does both in
  // promises nobody awaits, so a busy file would end the process with an unhandled rejection.
  const tables = LIMITS.map(([name]) => `sign_in_${name}`);
  for (const table of tables)
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER)`,
    );
  const [address, pair] = LIMITS.map(
    ([name, points], i) =>
      new RateLimiterSQLite({
        storeClient: betterSqliteShape(db),
        storeType: 'better-sqlite3',
        tableName: tables[i],
        tableCreated: true,
        keyPrefix: `sign-in-${name}`,
        points,
        duration,
        insuranceLimiter: insurance(points),
      }),
  );
  const clearExpired = tables.map((table) => db.prepare(`DELETE FROM ${table} WHERE expire < ?`));
  const clearing = setInterval(() => {
    try {
      for (const statement of clearExpired) statement.run(Date.now() - duration * 1000);
    } catch {
      // Busy: the next pass clears them; expired rows only take room, they never count.
    }
  }, CLEAR_EXPIRED_EVERY_MS).unref();
  return {
    throttle: { address, pair },
    close: async () => {
      clearInterval(clearing);
      db.close();
    },
  };
}

/**
 * node:sqlite speaks almost what the limiter expects of better-sqlite3: prepare() alike, and
 * transaction(fn) here. Each update is one upsert statement, atomic across processes on its own.
 */
function betterSqliteShape(db: DatabaseSync) {
  return {
    prepare: (sql: string) => db.prepare(sql),
    transaction:
      <A extends unknown[], R>(fn: (...args: A) => R) =>
      (...args: A): R => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = fn(...args);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      },
  };
}
