import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';

/**
 * The embedded log's identity: one row beside the events table, written once. INSERT OR IGNORE
 * makes two processes creating it at once agree on the first one's value.
 */
export function sqliteStoreId(db: DatabaseSync, options: { create: boolean }): string | null {
  db.exec(
    'CREATE TABLE IF NOT EXISTS store_identity (only INTEGER PRIMARY KEY CHECK (only = 1), store_id TEXT NOT NULL) STRICT',
  );
  if (options.create)
    db.prepare('INSERT OR IGNORE INTO store_identity (only, store_id) VALUES (1, ?)').run(
      randomUUID(),
    );
  const row = db.prepare('SELECT store_id FROM store_identity WHERE only = 1').get();
  return row ? String(row.store_id) : null;
}
