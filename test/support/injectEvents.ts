import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { EMBEDDED_DB_FILE } from '../../src/app/stores.ts';

/**
 * Writes `count` events of another account into a running Inkstream's embedded log through a
 * connection of its own, as another process on the file would: project events of a type no
 * consumer acts on, each with a little data, so that a reader of the log reads and parses them.
 * Returns the head after them.
 */
export function injectOtherAccountsEvents(
  dataDir: string,
  count: number,
  accountId = 'acc_stranger',
): bigint {
  const db = new DatabaseSync(join(dataDir, EMBEDDED_DB_FILE), { timeout: 5000 });
  try {
    db.exec('BEGIN IMMEDIATE');
    const last = db.prepare('SELECT max(position) AS position FROM events').get() as {
      position: number | null;
    };
    let position = BigInt(last.position ?? -1);
    const insert = db.prepare(
      'INSERT INTO events (position, id, stream, category, revision, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const metadata = JSON.stringify({ accountId, actor: { kind: 'operator' } });
    const at = new Date(0).toISOString();
    for (let i = 0; i < count; i++) {
      insert.run(
        ++position,
        randomUUID(),
        `project-prj_filler${i % 100}`,
        'project',
        Math.floor(i / 100),
        'ProjectFillerNoted',
        JSON.stringify({ note: 'x'.repeat(200), at }),
        metadata,
        at,
      );
    }
    db.exec('COMMIT');
    return position;
  } finally {
    db.close();
  }
}
