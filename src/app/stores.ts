import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../core/config.ts';
import type { StoreKinds } from '../platform.ts';
import type { EventStore } from '../eventstore/port.ts';
import type { ReadStore } from '../readstore/port.ts';
import type { MongoConnection } from '../readstore/mongo.ts';
import { openSqliteEventStore } from '../eventstore/sqlite.ts';
import { openSqliteReadStore } from '../readstore/sqlite.ts';
import { startSqliteCheckpointer, type Checkpointer } from '../core/sqliteCheckpointer.ts';
import {
  ensurePrivateDir,
  ensurePrivateFile,
  tightenFile,
  type OnTightened,
} from '../core/privateFiles.ts';

export type Stores = {
  eventStore: EventStore;
  readStore: ReadStore;
  kind: StoreKinds;
  /** Where each store is, for messages: the SQLite file, or the server URL without its password. */
  where: { events: string; reads: string };
  /** The MongoDB read store's connection (MONGODB_URL set), shared by what is kept beside the read models. */
  mongo?: MongoConnection;
  close(): Promise<void>;
};

export const EMBEDDED_DB_FILE = 'inkstream.sqlite';

export type OpenStoresOptions = {
  /**
   * False for the admin CLI: a store that does not exist yet is an error naming where it looked,
   * not a new empty store beside the server's (only the server and `inkstream init` create one).
   */
  create?: boolean;
  /** Told when a file of the embedded store had looser modes than 0600 and was tightened. */
  onTightened?: OnTightened;
};

export class StoreNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreNotFoundError';
  }
}

/**
 * The embedded default (one SQLite file under DATA_DIR, holding the log and the read models)
 * unless EVENTSTORE_URL / MONGODB_URL are set. Each store has its own connection; in one process
 * their transactions never interleave because none spans an await.
 */
export async function openStores(
  config: Config,
  onError: (message: string) => void = () => {},
  options: OpenStoresOptions = {},
): Promise<Stores> {
  const file = join(config.dataDir, EMBEDDED_DB_FILE);
  const embedded = !config.EVENTSTORE_URL || !config.MONGODB_URL;
  const where = {
    events: config.EVENTSTORE_URL
      ? `EventStoreDB ${withoutPassword(config.EVENTSTORE_URL)}`
      : `SQLite ${file}`,
    reads: config.MONGODB_URL ? `MongoDB ${withoutPassword(config.MONGODB_URL)}` : `SQLite ${file}`,
  };
  const create = options.create ?? true;
  if (!create && !config.EVENTSTORE_URL && !existsSync(file)) throw notFound(config, where.events);
  if (embedded) {
    ensurePrivateDir(config.dataDir);
    // Created 0600 before SQLite opens it: SQLite then gives its -wal and -shm files the same mode.
    const onTightened = options.onTightened ?? (() => {});
    ensurePrivateFile(file, onTightened);
    for (const companion of [`${file}-wal`, `${file}-shm`]) tightenFile(companion, onTightened);
  }
  const eventStore = config.EVENTSTORE_URL
    ? (await import('../eventstore/esdb.ts')).openEsdbEventStore(config.EVENTSTORE_URL)
    : openSqliteEventStore(file, { autoCheckpoint: false });
  if (!create && config.EVENTSTORE_URL && !(await hasHistory(eventStore))) {
    await eventStore.close();
    throw notFound(config, where.events);
  }
  let readStore: ReadStore;
  let mongo: MongoConnection | undefined;
  try {
    if (config.MONGODB_URL) {
      const opened = await (await import('../readstore/mongo.ts')).openMongoReadStore(
        config.MONGODB_URL,
      );
      ({ connection: mongo } = opened);
      readStore = opened;
    } else {
      readStore = openSqliteReadStore(file, { autoCheckpoint: false });
    }
  } catch (error) {
    await eventStore.close(); // the caller may try again with a new client
    throw error;
  }
  // Opened after the stores, which create the file and switch it to WAL.
  const checkpointer: Checkpointer | null = embedded
    ? startSqliteCheckpointer(file, { onError })
    : null;
  return {
    eventStore,
    readStore,
    kind: {
      events: config.EVENTSTORE_URL ? 'esdb' : 'sqlite',
      reads: config.MONGODB_URL ? 'mongo' : 'sqlite',
    },
    where,
    mongo,
    async close() {
      await checkpointer?.stop();
      await eventStore.close();
      await readStore.close();
    },
  };
}

/** A log with an identity, or with events from before identities, is an existing store. */
async function hasHistory(eventStore: EventStore): Promise<boolean> {
  return (
    (await eventStore.storeId({ create: false })) !== null ||
    (await eventStore.headPosition()) >= 0n
  );
}

function notFound(config: Config, events: string): StoreNotFoundError {
  const lookedAt = config.EVENTSTORE_URL
    ? `EVENTSTORE_URL=${withoutPassword(config.EVENTSTORE_URL)}`
    : `DATA_DIR=${config.DATA_DIR} (${config.dataDir}, from the working directory ${process.cwd()})`;
  return new StoreNotFoundError(
    `No Inkstream store in ${events}: looked at ${lookedAt}. Set DATA_DIR / EVENTSTORE_URL as the server has them ` +
      '(in the environment or in a .env file in this directory), or run `inkstream init` to create a new, empty store there.',
  );
}

/** A connection string for messages and logs: the password is replaced, the rest kept. */
export function withoutPassword(url: string): string {
  return url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
}
