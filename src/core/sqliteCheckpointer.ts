import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints copy the log into the database file and fsync it. Left to SQLite's automatic
 * checkpoint, that work lands on whichever connection commits when the WAL passes its threshold,
 * stalling this single-threaded process for tens of milliseconds. Instead the embedded default
 * turns automatic checkpoints off on its connections (`PRAGMA wal_autocheckpoint = 0`) and this
 * worker thread, with its own connection, runs a PASSIVE checkpoint (which never blocks readers
 * or writers) on an interval.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path, { timeout: 5000 });
const checkpoint = () => {
  try { db.exec('PRAGMA wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage({ error: String(error) }); }
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

export function startSqliteCheckpointer(path: string, options: { intervalMs?: number; onError?: (message: string) => void } = {}): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, intervalMs: options.intervalMs ?? 250 } });
  worker.on('message', (message: { error?: string }) => { if (message.error) options.onError?.(message.error); });
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
