import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../core/config.ts';
import { backupSqliteStore, readSqliteBackup, restoreSqliteStore } from '../core/sqliteBackup.ts';
import { BACKGROUND_LEASE, isDeadLocalProcess } from '../consumers/leadership.ts';
import { openSqliteReadStore } from '../readstore/sqlite.ts';
import type { Platform } from '../platform.ts';
import { EMBEDDED_DB_FILE } from '../app/stores.ts';

const SECRET_KEY_FILE = 'secret.key';

function requireEmbedded(config: Config, verb: string): void {
  if (config.EVENTSTORE_URL || config.MONGODB_URL) {
    throw new Error(
      `inkstream ${verb} covers the embedded SQLite store; with EVENTSTORE_URL / MONGODB_URL set, back up EventStoreDB and MongoDB with their own tools (docs/production.md)`,
    );
  }
}

/** A consistent copy of the running store and the key to its sealed secrets, in one 0600 file. */
export async function runBackup(
  platform: Platform,
  file: string,
  print: (line: string) => void,
): Promise<void> {
  const { config } = platform;
  requireEmbedded(config, 'backup');
  const keyFile = join(config.dataDir, SECRET_KEY_FILE);
  const fromEnvironment = Boolean(config.INKSTREAM_SECRET_KEY);
  const secretKey =
    fromEnvironment || !existsSync(keyFile) ? null : readFileSync(keyFile, 'utf8').trim();
  const destination = resolve(file);
  const pages = await backupSqliteStore(join(config.dataDir, EMBEDDED_DB_FILE), destination, {
    createdAt: new Date().toISOString(),
    secretKey,
  });
  print(`Backed up the store (${pages} pages) to ${destination} (readable by this user only).`);
  if (fromEnvironment)
    print(
      'The secret key comes from INKSTREAM_SECRET_KEY and is not in the backup: keep it with the backup, a restored store needs the same key.',
    );
  else
    print(`The secret key (${keyFile}) is in the backup: keep the file as safe as the key itself.`);
}

/** Brings a backup back into DATA_DIR while no server runs there; the replaced store and key are kept beside it. */
export async function runRestore(
  config: Config,
  file: string,
  print: (line: string) => void,
): Promise<void> {
  requireEmbedded(config, 'restore');
  const source = resolve(file);
  const contents = readSqliteBackup(source);
  const target = join(config.dataDir, EMBEDDED_DB_FILE);
  if (existsSync(target)) await refuseWhileServed(target);
  mkdirSync(config.dataDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  restoreSqliteStore(source, target, `${target}.before-restore-${stamp}`);
  print(`Restored ${source} (made ${contents.createdAt}) into ${target}.`);
  if (existsSync(`${target}.before-restore-${stamp}`))
    print(`The store it replaced is kept as ${target}.before-restore-${stamp}.`);
  if (contents.secretKey === null) {
    print(
      'The backup holds no secret key (the server used INKSTREAM_SECRET_KEY): start the server with that same key.',
    );
    return;
  }
  const keyFile = join(config.dataDir, SECRET_KEY_FILE);
  if (existsSync(keyFile) && readFileSync(keyFile, 'utf8').trim() !== contents.secretKey)
    renameSync(keyFile, `${keyFile}.before-restore-${stamp}`);
  writeFileSync(keyFile, contents.secretKey, { mode: 0o600 });
  if (config.INKSTREAM_SECRET_KEY)
    print(
      `INKSTREAM_SECRET_KEY is set and wins over the restored ${keyFile}: unset it, or the restored secrets cannot be opened.`,
    );
}

/** A server on the store holds the background lease and keeps writing: replacing the file under it would lose those writes. */
async function refuseWhileServed(file: string): Promise<void> {
  const readStore = openSqliteReadStore(file);
  try {
    const lease = await readStore.leaseHolder(BACKGROUND_LEASE);
    if (lease && lease.expiresAtMs > Date.now() && !isDeadLocalProcess(lease.holder)) {
      throw new Error(
        `A server is running on ${file} (${lease.holder}). Stop it, then restore (a killed server's lease lapses within 15 s).`,
      );
    }
  } finally {
    await readStore.close();
  }
}
