/**
 * Batch commit throughput of the SQLite read store against a raw node:sqlite baseline of plain
 * inserts into an unindexed table, in the same run. Three passes over the same writes:
 * - live: indexes in place and maintained row by row (a projection keeping up with the log);
 * - replay: the same writes again, all stale and ignored (an at-least-once redelivery);
 * - rebuild: reset, then the writes into unindexed tables, then the first query of each collection,
 *   which builds the deferred indexes — timed end to end, index build included.
 * The store is opened as the embedded default opens it: WAL checkpoints on a worker thread, not in
 * a commit. Each figure is the best of ROUNDS rounds (the median beside it), the raw baseline run
 * in every round, so load from elsewhere on the machine skews both alike.
 * Run: npx node bench/readstore.bench.ts  → bench/results/readstore.json
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startSqliteCheckpointer } from '../src/core/sqliteCheckpointer.ts';
import type { CollectionSpec, ReadModelWrite } from '../src/readstore/port.ts';
import { openSqliteReadStore } from '../src/readstore/sqlite.ts';

const WRITES = 200_000;
const BATCH = 500;
const WRITES_PER_DOCUMENT = 4; // a rebuild mostly updates documents it created a few events earlier
const ROUNDS = 5;

const SPECS: CollectionSpec[] = [
  { name: 'articles', indexes: ['accountId', 'projectId', 'status'] },
  { name: 'topics', indexes: ['accountId', 'projectId', 'status'] },
  { name: 'projects', indexes: ['accountId', 'updatedAt'] },
];
const STATUSES = ['queued', 'researching', 'writing', 'draft', 'pr_open', 'merged'];

function makeWrites(): ReadModelWrite[] {
  const documents = WRITES / WRITES_PER_DOCUMENT;
  return Array.from({ length: WRITES }, (_, i) => {
    const spec = SPECS[i % SPECS.length];
    const n = i % documents;
    const id = `${spec.name.slice(0, 3)}_${String(n).padStart(8, '0')}`;
    const doc = {
      id,
      accountId: `acc_${n % 200}`,
      projectId: `prj_${n % 2_000}`,
      status: STATUSES[Math.floor(i / documents) % STATUSES.length],
      title: `How to write about topic number ${n} without repeating yourself`,
      wordCount: 800 + (i % 1200),
      updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    };
    return { kind: 'put', collection: spec.name, id, position: BigInt(i), doc };
  });
}

const batches = <T>(items: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / BATCH) }, (_, b) =>
    items.slice(b * BATCH, (b + 1) * BATCH),
  );

/** Writes per second of wall time, and per second of this process's CPU time (steadier on a shared machine). */
type Passes = {
  live: number;
  replay: number;
  rebuild: number;
  rebuildPerCpuSecond: number;
  indexBuildMs: number;
};

async function readStorePasses(dir: string, writes: ReadModelWrite[]): Promise<Passes> {
  const file = join(dir, 'readstore.sqlite');
  const store = openSqliteReadStore(file, { autoCheckpoint: false });
  const checkpointer = startSqliteCheckpointer(file);
  await store.ensureCollections(SPECS);
  const commitAll = async () => {
    for (const batch of batches(writes)) {
      await store.commit(batch, {
        consumer: 'bench',
        position: (batch[batch.length - 1] as { position: bigint }).position,
      });
    }
  };
  const perSecond = (started: number) => (writes.length / (performance.now() - started)) * 1000;
  let started = performance.now();
  await commitAll();
  const live = perSecond(started);
  started = performance.now();
  await commitAll();
  const replay = perSecond(started);
  await store.reset(
    SPECS.map((spec) => spec.name),
    ['bench'],
  );
  const cpu = process.cpuUsage();
  started = performance.now();
  await commitAll();
  const indexStarted = performance.now();
  for (const spec of SPECS)
    await store.find(spec.name, { filter: { accountId: 'acc_1' }, limit: 1 });
  const indexBuildMs = performance.now() - indexStarted;
  const rebuild = perSecond(started);
  const { user, system } = process.cpuUsage(cpu);
  await checkpointer.stop();
  await store.close();
  return {
    live,
    replay,
    rebuild,
    rebuildPerCpuSecond: (writes.length / (user + system)) * 1e6,
    indexBuildMs,
  };
}

function rawInserts(dir: string, writes: ReadModelWrite[]): number {
  const db = new DatabaseSync(join(dir, 'raw.sqlite'));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  db.exec('CREATE TABLE plain (id TEXT, doc TEXT)');
  const insert = db.prepare('INSERT INTO plain (id, doc) VALUES (?, ?)');
  const started = performance.now();
  for (const batch of batches(writes)) {
    db.exec('BEGIN IMMEDIATE');
    for (const write of batch) insert.run(write.id, JSON.stringify(write.doc));
    db.exec('COMMIT');
  }
  const perSecond = (writes.length / (performance.now() - started)) * 1000;
  db.close();
  return perSecond;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const best = (values: number[]): number => Math.max(...values);
const loadAtStart = loadavg()[0];

const writes = makeWrites();
const rounds: (Passes & { raw: number })[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const dir = mkdtempSync(join(tmpdir(), 'inkstream-bench-'));
  try {
    rounds.push({ ...(await readStorePasses(dir, writes)), raw: rawInserts(dir, writes) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rebuild = best(rounds.map((r) => r.rebuild));
const rebuildMedian = median(rounds.map((r) => r.rebuild));
const live = best(rounds.map((r) => r.live));
const replay = best(rounds.map((r) => r.replay));
const raw = best(rounds.map((r) => r.raw));
const ratio = (value: number) => Number((value / raw).toFixed(3));
const probe = new DatabaseSync(':memory:');
const result = {
  benchmark: 'readstore.sqlite.commit',
  at: new Date().toISOString(),
  machine: {
    loadAverage1m: { start: loadAtStart, end: loadavg()[0] },
    cpus: availableParallelism(),
    model: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    sqlite: probe.prepare('SELECT sqlite_version() AS v').get()?.v,
  },
  setup: {
    writes: WRITES,
    batchSize: BATCH,
    writesPerDocument: WRITES_PER_DOCUMENT,
    collections: SPECS,
    rounds: ROUNDS,
    walCheckpoints: 'worker thread, as the embedded default',
  },
  writesPerSecond: {
    rebuild: Math.round(rebuild),
    rebuildMedian: Math.round(rebuildMedian),
    rebuildPerCpuSecond: Math.round(best(rounds.map((r) => r.rebuildPerCpuSecond))),
    live: Math.round(live),
    replayOfStaleWrites: Math.round(replay),
    rawPlainInserts: Math.round(raw),
  },
  ratioToRaw: { rebuild: ratio(rebuild), live: ratio(live), replayOfStaleWrites: ratio(replay) },
  rebuildIndexBuildMs: Math.round(median(rounds.map((r) => r.indexBuildMs))),
  target: { rebuildWritesPerSecond: 100_000, met: rebuild >= 100_000 },
  rounds: rounds.map((r) =>
    Object.fromEntries(Object.entries(r).map(([key, value]) => [key, Math.round(value)])),
  ),
};
probe.close();

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/readstore.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(
  `rebuild (reset → writes → index build): ${result.writesPerSecond.rebuild.toLocaleString()} writes/s, median ${result.writesPerSecond.rebuildMedian.toLocaleString()} (${result.ratioToRaw.rebuild}x raw, index build ${result.rebuildIndexBuildMs} ms)`,
);
console.log(
  `rebuild per CPU second                : ${result.writesPerSecond.rebuildPerCpuSecond.toLocaleString()} writes/s (load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end)`,
);
console.log(
  `live (indexes maintained per row)    : ${result.writesPerSecond.live.toLocaleString()} writes/s (${result.ratioToRaw.live}x raw)`,
);
console.log(
  `replay (all stale)                   : ${result.writesPerSecond.replayOfStaleWrites.toLocaleString()} writes/s (${result.ratioToRaw.replayOfStaleWrites}x raw)`,
);
console.log(
  `raw plain inserts                    : ${result.writesPerSecond.rawPlainInserts.toLocaleString()} writes/s`,
);
console.log(`target ≥ 100,000 writes/s: ${result.target.met ? 'met' : 'NOT met'}`);
