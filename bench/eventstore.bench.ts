/**
 * Event store throughput against raw node:sqlite on the same machine, in the same run:
 *   npx node bench/eventstore.bench.ts
 * Each figure is the best of ROUNDS rounds, the baseline and ours interleaved, so a burst of load
 * from elsewhere on the machine skews both sides alike. Prints a table and writes
 * bench/results/eventstore.json. Takes about half a minute.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loadConfig } from '../src/core/config.ts';
import type { EventMetadata, EventStore, NewEvent } from '../src/eventstore/port.ts';
import { openStores } from '../src/app/stores.ts';

const ROUNDS = 3;
const APPENDS_PER_ROUND = 10_000;
const STREAMS = 1_000;
const CATEGORIES = ['article', 'topic', 'project', 'account'];
const LOG_SIZE = 200_000;
const SELECTS_PER_ROUND = 100_000;

const metadata: EventMetadata = {
  accountId: 'acc_01jb2c3d4e5f6g7h8j9k0m1n2p',
  actor: { kind: 'api_key', keyId: 'key_01jb2c3d4e5f6g7h8j9k0m1n2p' },
  correlationId: 'cor_01jb2c3d4e5f6g7h8j9k0m1n2p',
  causationId: 'cor_01jb2c3d4e5f6g7h8j9k0m1n2p',
  requestId: 'req_01jb2c3d4e5f6g7h8j9k0m1n2p',
};
const event = (i: number): NewEvent => ({
  id: randomUUID(),
  type: 'ArticleQueued',
  metadata,
  data: {
    articleId: `art_${i}`,
    topicId: 'tpc_01jb2c3d4e5f6g7h8j9k0m1n2p',
    projectId: 'prj_01jb2c3d4e5f6g7h8j9k0m1n2p',
    at: new Date(0).toISOString(),
  },
});
const streamOf = (i: number) => `${CATEGORIES[i % CATEGORIES.length]}-${i % STREAMS}`;

const best = new Map<string, number>();
/** Per second of this process's CPU time (all threads): steadier than wall time when neighbours share the cores. */
const bestPerCpuSecond = new Map<string, number>();
async function measure(name: string, work: () => number | Promise<number>): Promise<void> {
  const start = performance.now();
  const cpuBefore = process.cpuUsage();
  const count = await work();
  const cpu = process.cpuUsage(cpuBefore);
  const perSecond = Math.round((count / (performance.now() - start)) * 1000);
  const perCpuSecond = Math.round(count / ((cpu.user + cpu.system) / 1e6));
  best.set(name, Math.max(best.get(name) ?? 0, perSecond));
  bestPerCpuSecond.set(name, Math.max(bestPerCpuSecond.get(name) ?? 0, perCpuSecond));
}

function openBaseline(file: string) {
  const db = new DatabaseSync(file);
  db.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE rows (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)',
  );
  const [begin, insert, commit, select] = [
    'BEGIN',
    'INSERT INTO rows (payload) VALUES (?)',
    'COMMIT',
    'SELECT payload FROM rows WHERE id = ?',
  ].map((sql) => db.prepare(sql));
  const payload = JSON.stringify(event(0));
  let rows = 0;
  return {
    transactions(count: number) {
      for (let i = 0; i < count; i++, rows++) {
        begin.run();
        insert.run(payload);
        commit.run();
      }
      return count;
    },
    pointSelects(count: number) {
      for (let i = 0; i < count; i++) select.get(1 + ((i * 7919) % rows));
      return count;
    },
    sqliteVersion: () => String(db.prepare('SELECT sqlite_version() AS v').get()?.v),
    close: () => db.close(),
  };
}

async function readWholeLog(store: EventStore, categories?: string[]): Promise<number> {
  let after = -1n;
  let count = 0;
  for (;;) {
    const page = await store.readAll({ after, categories });
    if (page.length === 0) return count;
    count += page.length;
    after = page[page.length - 1].position;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'inkstream-bench-'));
try {
  const baseline = openBaseline(join(dir, 'raw.sqlite'));
  // The log as `npm start` opens it: WAL checkpoints on their own thread, not inside appends.
  const stores = await openStores(loadConfig({ DATA_DIR: join(dir, 'inkstream') }));
  const store = stores.eventStore;
  const revisions = new Map<string, bigint>();
  let written = 0;
  // One event per transaction, each with the revision the writer last saw, as a command appends.
  const appendOneEach = async (count: number) => {
    for (const end = written + count; written < end; written++) {
      const stream = streamOf(written);
      revisions.set(
        stream,
        (await store.append(stream, [event(written)], revisions.get(stream) ?? 'no_stream'))
          .nextRevision,
      );
    }
    return count;
  };
  for (let round = 0; round < ROUNDS; round++) {
    await measure('baselineSingleRowTransactions', () => baseline.transactions(APPENDS_PER_ROUND));
    await measure('appendsOneEventPerTransaction', () => appendOneEach(APPENDS_PER_ROUND));
  }
  for (; written < LOG_SIZE; written += 100) {
    const stream = streamOf(written);
    const batch = Array.from({ length: 100 }, (_, k) => event(written + k));
    revisions.set(
      stream,
      (await store.append(stream, batch, revisions.get(stream) ?? 'no_stream')).nextRevision,
    );
  }
  for (let round = 0; round < ROUNDS; round++) {
    await measure('baselinePointSelects', () => baseline.pointSelects(SELECTS_PER_ROUND));
    await measure('readAllEvents', () => readWholeLog(store));
    await measure('readAllOneCategoryEvents', () => readWholeLog(store, ['article']));
  }
  await measure('readStreamEvents', async () => {
    let count = 0;
    for (let i = 0; i < 5_000; i++) count += (await store.readStream(streamOf(i))).length;
    return count;
  });

  const perSecond = Object.fromEntries(best);
  const ratio = (name: string, base: string) =>
    Number(((best.get(name) ?? 0) / (best.get(base) ?? 1)).toFixed(3));
  const report = {
    at: new Date().toISOString(),
    machine: {
      node: process.version,
      sqlite: baseline.sqliteVersion(),
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      loadAverage1m: loadavg()[0],
    },
    setup: {
      rounds: ROUNDS,
      appendsPerRound: APPENDS_PER_ROUND,
      streams: STREAMS,
      logSize: LOG_SIZE,
      readAllBatch: 1000,
    },
    perSecond,
    perCpuSecond: Object.fromEntries(bestPerCpuSecond),
    ratios: {
      appendsVsBaselineTransactions: ratio(
        'appendsOneEventPerTransaction',
        'baselineSingleRowTransactions',
      ),
      readAllVsBaselinePointSelects: ratio('readAllEvents', 'baselinePointSelects'),
      readAllOneCategoryVsBaselinePointSelects: ratio(
        'readAllOneCategoryEvents',
        'baselinePointSelects',
      ),
    },
  };
  baseline.close();
  await stores.close();
  console.table(
    Object.fromEntries(
      Object.keys(perSecond).map((name) => [
        name,
        { perSecond: perSecond[name], perCpuSecond: report.perCpuSecond[name] },
      ]),
    ),
  );
  console.table(report.ratios);
  console.log(
    `load average (1 min) at the end: ${report.machine.loadAverage1m.toFixed(2)} on ${report.machine.cpus} cpus`,
  );
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(
    join(import.meta.dirname, 'results', 'eventstore.json'),
    `${JSON.stringify(report, null, 2)}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
