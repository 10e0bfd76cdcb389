import { chmodSync, existsSync, mkdirSync, openSync, closeSync, statSync } from 'node:fs';

/**
 * DATA_DIR holds the embedded database and, without INKSTREAM_SECRET_KEY, the key that opens
 * every sealed secret in it: only the user running Inkstream may read them. Files are created
 * 0600 (SQLite gives its -wal and -shm files the database file's mode), a directory Inkstream
 * creates is 0700, and an existing file with a looser mode is tightened, with a notice.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Called for each file whose mode was tightened: the path and the mode it had. */
export type OnTightened = (path: string, previousMode: number) => void;

/** Creates the directory 0700 when it is missing; an existing directory is the operator's and is left as it is. */
export function ensurePrivateDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Tightens an existing file readable or writable by group or others to 0600. */
export function tightenFile(path: string, onTightened: OnTightened): void {
  if (!existsSync(path)) return;
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  chmodSync(path, PRIVATE_FILE_MODE);
  onTightened(path, mode);
}

/** The file exists afterwards with mode 0600: created empty (an empty file is an empty SQLite database) or tightened. */
export function ensurePrivateFile(path: string, onTightened: OnTightened): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    tightenFile(path, onTightened);
  }
}
