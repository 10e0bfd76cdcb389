/**
 * Read-model figures on the embedded default:
 * - projection lag (append → document visible) at a paced 1,000 appends/s: p50/p99;
 * - rebuilding the read models from the log, in events/s;
 * with a raw node:sqlite baseline (single-row transactions/s) measured in the same run.
 * Run: npx node bench/projections.bench.ts
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { allProjections } from '../projections/index.ts';
import { applyProjections, projectionConsumer } from '../src/consumers/projectionConsumer.ts';
import { startConsumer } from '../src/consumers/runner.ts';
import { handleCommand } from '../src/eventstore/handleCommand.ts';
import { openSqliteEventStore } from '../src/eventstore/sqlite.ts';
import { projectStream } from '../src/projects/decide.ts';
import { DEFAULT_SETTINGS } from '../src/projects/settings.ts';
import { openSqliteReadStore } from '../src/readstore/sqlite.ts';
import { startSqliteCheckpointer } from '../src/core/sqliteCheckpointer.ts';

const dir = mkdtempSync(join(tmpdir(), 'ink-bench-proj-'));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function rawBaseline(): number {
  const db = new DatabaseSync(join(dir, 'raw.sqlite'));
  db.exec('PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  const n = 20_000;
  const started = performance.now();
  for (let i = 0; i < n; i++) { db.exec('BEGIN'); insert.run(`v${i}`); db.exec('COMMIT'); }
  return n / ((performance.now() - started) / 1000);
}

const context = (i: number) => ({ accountId: 'acc_bench', actor: { kind: 'system' as const, worker: 'bench' }, correlationId: 'c', causationId: 'c', requestId: 'r', commandId: `bench:${i}` });
const projectId = (i: number) => `prj_${String(i).padStart(26, '0')}`;

async function lag(): Promise<{ p50: number; p99: number; appendsPerSecond: number }> {
  const file = join(dir, 'lag.sqlite');
  // As the embedded default opens them: WAL checkpoints on a worker thread, not on commit.
  const store = openSqliteEventStore(file, { autoCheckpoint: false });
  const readStore = openSqliteReadStore(file, { autoCheckpoint: false });
  const checkpointer = startSqliteCheckpointer(file);
  await readStore.ensureCollections(allProjections.map((p) => ({ name: p.collection, indexes: p.indexes })));
  const consumer = await startConsumer(projectionConsumer(allProjections, readStore), { store, readStore, logger: pino({ level: 'silent' }) });
  const lags: number[] = [];
  const total = 3000;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + i; // 1,000 per second
    while (performance.now() < due) await new Promise((resolve) => setImmediate(resolve));
    const sent = performance.now();
    const result = await handleCommand(store, projectStream, projectId(i), {
      type: 'CreateProject', projectId: projectId(i), accountId: 'acc_bench', name: `p${i}`, websiteUrl: 'https://example.com',
      blogUrl: null, sitemapUrl: null, settings: DEFAULT_SETTINGS, crawlId: `c${i}`, at: new Date().toISOString(),
    }, context(i));
    void consumer.waitFor(result.position!, 5_000).then(() => lags.push(performance.now() - sent));
  }
  await consumer.waitFor(await store.headPosition(), 10_000);
  const seconds = (performance.now() - started) / 1000;
  await consumer.stop();
  await checkpointer.stop();
  lags.sort((a, b) => a - b);
  return { p50: percentile(lags, 50), p99: percentile(lags, 99), appendsPerSecond: total / seconds };
}

async function rebuild(): Promise<{ events: number; eventsPerSecond: number }> {
  const file = join(dir, 'rebuild.sqlite');
  const store = openSqliteEventStore(file);
  const n = 100_000;
  for (let i = 0; i < n; i += 2) {
    const id = projectId(i % 20_000);
    const events = [0, 1].map((k) => ({
      id: crypto.randomUUID(), type: k === 0 && i < 20_000 ? 'ProjectCreated' : 'ProjectRenamed',
      data: { projectId: id, accountId: 'acc_bench', name: `p${i + k}`, websiteUrl: 'https://example.com', blogUrl: null, sitemapUrl: null, settings: DEFAULT_SETTINGS, at: '2026-11-01T00:00:00.000Z' },
      metadata: context(i),
    }));
    await store.append(`project-${id}-${i}`, events, 'no_stream');
  }
  const readStore = openSqliteReadStore(file);
  await readStore.ensureCollections(allProjections.map((p) => ({ name: p.collection, indexes: p.indexes })));
  const started = performance.now();
  // As `inkstream projections rebuild` does: reset (which defers the secondary indexes), replay, then index once.
  await readStore.reset(allProjections.map((p) => p.collection), ['rebuild']);
  let after = -1n;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 20_000 });
    if (batch.length === 0) break;
    await applyProjections(allProjections, readStore, batch, 'rebuild');
    after = batch[batch.length - 1].position;
  }
  for (const projection of allProjections) await readStore.count(projection.collection);
  return { events: n, eventsPerSecond: n / ((performance.now() - started) / 1000) };
}

const baseline = rawBaseline();
const lagResult = await lag();
const rebuildResult = await rebuild();
const results = {
  machine: { cores: (await import('node:os')).cpus().length, node: process.version },
  rawSqliteTransactionsPerSecond: Math.round(baseline),
  projectionLag: { ...lagResult, targetP99Ms: 20 },
  rebuild: { ...rebuildResult, targetEventsPerSecond: 100_000, ratioToRawTransactions: rebuildResult.eventsPerSecond / baseline },
};
console.log(`raw node:sqlite single-row transactions/s: ${Math.round(baseline)}`);
console.log(`projection lag at ${Math.round(lagResult.appendsPerSecond)} appends/s: p50 ${lagResult.p50.toFixed(2)} ms, p99 ${lagResult.p99.toFixed(2)} ms (target p99 ≤ 20 ms)`);
console.log(`rebuild: ${Math.round(rebuildResult.eventsPerSecond)} events/s (${(rebuildResult.eventsPerSecond / baseline).toFixed(2)}× raw transactions/s; target ≥ 100,000)`);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'projections.json'), `${JSON.stringify(results, null, 2)}\n`);
