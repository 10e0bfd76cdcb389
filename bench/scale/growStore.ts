/**
 * The scale bench's store on disk, step by step: seeded (the near-empty store), grown to SIZE
 * events (in a process of its own, growProcess.ts) with a retention pass as the hourly job would
 * have kept the delivery log all year, and the consumers' checkpoints moved to the head. Shared by bench/scale.bench.ts and
 * bench/scale/tails.ts.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { allProjections } from '../../src/app/features.ts';
import { positionToText } from '../../src/core/positions.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import type { EventStore } from '../../src/eventstore/port.ts';
import { projectionVersion } from '../../src/readstore/projectionVersion.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import type { ReadStore } from '../../src/readstore/port.ts';
import { DELIVERIES } from '../../src/features/webhooks/collections.ts';
import { pruneWebhookHistory } from '../../src/features/webhooks/retention.ts';
import { createGrower } from './grow.ts';

export type Retention = {
  deliveriesWritten: number;
  deliveriesRemoved: number;
  deliveriesKept: number;
  passSeconds: number;
};

async function withStores<T>(
  file: string,
  work: (eventStore: EventStore, readStore: ReadStore) => Promise<T>,
): Promise<T> {
  const eventStore = openSqliteEventStore(file);
  const readStore = openSqliteReadStore(file);
  try {
    await readStore.ensureCollections(
      allProjections.map((p) => ({
        name: p.collection,
        indexes: p.indexes,
        version: projectionVersion(p),
      })),
    );
    return await work(eventStore, readStore);
  } finally {
    await eventStore.close();
    await readStore.close();
  }
}

/** The account, 100 projects, a small project's and the big project's first topics. */
export const seedStore = (file: string, options: { eventsPlanned: number; endMs: number }) =>
  withStores(file, (eventStore, readStore) => createGrower(eventStore, readStore, options).seed());

/** Grows the log to `size` events, then one retention pass (the hourly job would have kept the delivery log to its window all year). */
export function growStore(
  file: string,
  size: number,
  endMs: number,
  onProgress: (head: bigint) => void,
): Promise<Retention> {
  return withStores(file, async (eventStore, readStore) => {
    const grower = createGrower(eventStore, readStore, { eventsPlanned: size, endMs });
    await grower.growTo(size, onProgress);
    const pruneStarted = performance.now();
    const pruned = await pruneWebhookHistory(readStore, endMs);
    return {
      deliveriesWritten: grower.deliveries,
      deliveriesRemoved: pruned.deliveries,
      deliveriesKept: await readStore.count(DELIVERIES),
      passSeconds: Number(((performance.now() - pruneStarted) / 1000).toFixed(1)),
    };
  });
}

/** growStore in a child process (growProcess.ts), so the bench's own heap stays as small as it was for the near-empty store. */
export function growStoreApart(file: string, size: number, endMs: number): Promise<Retention> {
  return new Promise((resolve, reject) => {
    const child = fork(
      join(import.meta.dirname, 'growProcess.ts'),
      [file, String(size), String(endMs)],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    let retention: Retention | null = null;
    child.once('message', (message: { retention: Retention }) => {
      retention = message.retention;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      retention ? resolve(retention) : reject(new Error(`growing exited with ${code}`)),
    );
  });
}

/** Events in the log. */
export async function eventsIn(file: string): Promise<bigint> {
  const store = openSqliteEventStore(file);
  try {
    return (await store.headPosition()) + 1n;
  } finally {
    await store.close();
  }
}

/**
 * In a year of use the pipeline, outbox and other consumers handled each event as it came; here
 * their checkpoints (set by a first start) are moved to the head, or the next start would be them
 * catching up on the whole grown log rather than a cold start.
 */
export async function moveCheckpointsToHead(file: string): Promise<void> {
  const head = (await eventsIn(file)) - 1n;
  const db = new DatabaseSync(file);
  try {
    db.prepare('UPDATE checkpoints SET position = ?').run(positionToText(head));
  } finally {
    db.close();
  }
}
