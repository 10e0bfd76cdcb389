import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints copy the log into the database file and fsync it. Left to SQLite's automatic
 * checkpoint, that work lands on whichever connection commits when the WAL passes its threshold,
 * stalling this single-threaded process for tens of milliseconds. Instead the embedded default
 * turns automatic checkpoints off on its connections (`PRAGMA wal_autocheckpoint = 0`) and this
 * worker thread, with its own connection, runs a PASSIVE checkpoint (which never blocks readers
 * or writers) on an interval.
 *
 * The WAL only starts again from its beginning when a write finds every frame copied back, and a
 * writer that never pauses (an online rebuild from the CLI) always has written more since the last
 * checkpoint: the WAL grew to ten times the database. Past RESTART_AFTER_FRAMES the worker also
 * asks for a RESTART, which holds writers off (at most 100 ms) until the WAL is copied back and
 * can start again.
 */
const RESTART_AFTER_FRAMES = 4096;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path, { timeout: 5000 });
const passive = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
const checkpoint = () => {
  try {
    if (passive.get().log < workerData.restartAfterFrames) return;
    db.exec('PRAGMA busy_timeout = 100');
    try { restart.get(); } finally { db.exec('PRAGMA busy_timeout = 5000'); }
  } catch (error) {
    if (!String(error).includes('database is locked')) parentPort.postMessage({ error: String(error) }); // busy: the next turn tries again
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export type Checkpointer = { stop(): Promise<void> };

export function startSqliteCheckpointer(
  path: string,
  options: { intervalMs?: number; onError?: (message: string) => void } = {},
): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      path,
      intervalMs: options.intervalMs ?? 250,
      restartAfterFrames: RESTART_AFTER_FRAMES,
    },
  });
  worker.on('message', (message: { error?: string }) => {
    if (message.error) options.onError?.(message.error);
  });
  worker.unref();
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.ref(); // keep the process alive until the last checkpoint is done
        worker.postMessage('stop');
      });
      return stopped;
    },
  };
}
