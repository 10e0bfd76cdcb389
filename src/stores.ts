import { join } from 'node:path';
import type { Config } from './config.ts';
import type { EventStore } from './eventstore/port.ts';
import type { ReadStore } from './readstore/port.ts';
import { openSqliteEventStore } from './eventstore/sqlite.ts';
import { openSqliteReadStore } from './readstore/sqlite.ts';
import { startSqliteCheckpointer, type Checkpointer } from './core/sqliteCheckpointer.ts';
import { ensurePrivateDir, ensurePrivateFile, tightenFile, type OnTightened } from './core/privateFiles.ts';

export type Stores = {
  eventStore: EventStore;
  readStore: ReadStore;
  kind: { events: 'sqlite' | 'esdb'; reads: 'sqlite' | 'mongo' };
  close(): Promise<void>;
};

export const EMBEDDED_DB_FILE = 'inkstream.sqlite';

/**
 * The embedded default (one SQLite file under DATA_DIR, holding the log and the read models)
 * unless EVENTSTORE_URL / MONGODB_URL are set. Each store has its own connection; in one process
 * their transactions never interleave because none spans an await.
 */
export async function openStores(config: Config, onError: (message: string) => void = () => {}, onTightened: OnTightened = () => {}): Promise<Stores> {
  ensurePrivateDir(config.dataDir);
  const file = join(config.dataDir, EMBEDDED_DB_FILE);
  const embedded = !config.EVENTSTORE_URL || !config.MONGODB_URL;
  if (embedded) {
    // Created 0600 before SQLite opens it: SQLite then gives its -wal and -shm files the same mode.
    ensurePrivateFile(file, onTightened);
    for (const companion of [`${file}-wal`, `${file}-shm`]) tightenFile(companion, onTightened);
  }
  const eventStore = config.EVENTSTORE_URL
    ? (await import('./eventstore/esdb.ts')).openEsdbEventStore(config.EVENTSTORE_URL)
    : openSqliteEventStore(file, { autoCheckpoint: false });
  const readStore = config.MONGODB_URL
    ? await (await import('./readstore/mongo.ts')).openMongoReadStore(config.MONGODB_URL)
    : openSqliteReadStore(file, { autoCheckpoint: false });
  // Opened after the stores, which create the file and switch it to WAL.
  const checkpointer: Checkpointer | null = embedded ? startSqliteCheckpointer(file, { onError }) : null;
  return {
    eventStore,
    readStore,
    kind: { events: config.EVENTSTORE_URL ? 'esdb' : 'sqlite', reads: config.MONGODB_URL ? 'mongo' : 'sqlite' },
    async close() {
      await checkpointer?.stop();
      await eventStore.close();
      await readStore.close();
    },
  };
}
