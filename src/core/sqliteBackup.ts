import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { backup, DatabaseSync } from 'node:sqlite';

/** Everything in one step: a single read transaction, so the copy is one consistent snapshot (WAL lets writers go on meanwhile). */
const ALL_PAGES = 2 ** 31 - 1;
const META_TABLE = 'inkstream_backup';

export type BackupContents = { createdAt: string; secretKey: string | null };

/**
 * Copies the SQLite store with SQLite's online backup while other connections keep writing, and
 * adds the key that opens its sealed secrets in a table of the copy, so the backup is one file.
 * The file is created 0600 and never overwrites an existing one.
 */
export async function backupSqliteStore(
  source: string,
  destination: string,
  contents: BackupContents,
): Promise<number> {
  try {
    writeFileSync(destination, '', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new Error(`${destination} already exists; choose a new file name`);
    throw error;
  }
  const db = new DatabaseSync(source, { readOnly: true, timeout: 5_000 });
  try {
    const pages = await backup(db, destination, { rate: ALL_PAGES });
    const copy = new DatabaseSync(destination);
    copy.exec(`CREATE TABLE ${META_TABLE} (name TEXT PRIMARY KEY, value TEXT) STRICT`);
    const put = copy.prepare(`INSERT INTO ${META_TABLE} (name, value) VALUES (?, ?)`);
    put.run('created_at', contents.createdAt);
    put.run('secret_key', contents.secretKey);
    copy.close();
    chmodSync(destination, 0o600);
    return pages;
  } catch (error) {
    rmSync(destination, { force: true });
    throw error;
  } finally {
    db.close();
  }
}

/** What a backup file holds; anything that is not an intact Inkstream backup is refused here, before the store is touched. */
export function readSqliteBackup(file: string): BackupContents {
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw new Error(`${file} is not an Inkstream backup: ${(error as Error).message}`);
  }
  try {
    const tables = new Set(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((row) => String(row.name)),
    );
    if (!tables.has(META_TABLE) || !tables.has('events'))
      throw new Error(`${file} is not an Inkstream backup (made by \`inkstream backup\`)`);
    const check = db.prepare('PRAGMA quick_check').get();
    if (check?.quick_check !== 'ok')
      throw new Error(`${file} is damaged: ${String(check?.quick_check)}`);
    const meta = new Map(
      db
        .prepare(`SELECT name, value FROM ${META_TABLE}`)
        .all()
        .map((row) => [String(row.name), row.value as string | null]),
    );
    return { createdAt: String(meta.get('created_at')), secretKey: meta.get('secret_key') ?? null };
  } catch (error) {
    if ((error as Error).message.startsWith(file)) throw error;
    throw new Error(`${file} is not an Inkstream backup: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Puts the backup's store at `target`: copied beside it first and made ready there (the backup's
 * own table and the leases of the processes that ran then are dropped), then renamed over it, so
 * an interrupted restore leaves the old store as it was. The replaced store is kept as `aside`.
 */
export function restoreSqliteStore(backupFile: string, target: string, aside: string): void {
  const staged = `${target}.restoring`;
  rmSync(staged, { force: true });
  copyFileSync(backupFile, staged);
  chmodSync(staged, 0o600);
  const db = new DatabaseSync(staged);
  db.exec(`DROP TABLE ${META_TABLE}`);
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leases'").get())
    db.exec('DELETE FROM leases');
  db.close();
  if (existsSync(target)) {
    // Opening and closing the old store checkpoints its WAL into the file, so what is kept aside is whole.
    new DatabaseSync(target).close();
    renameSync(target, aside);
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
  renameSync(staged, target);
}
