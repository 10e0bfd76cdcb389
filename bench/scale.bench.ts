/**
 * A year of data: grows a store to SIZE events (default 1,000,000) spread like real use
 * (bench/scale/grow.ts: 100 projects, topics, articles through their pipeline states, webhook
 * deliveries), and measures, against the same run's near-empty store:
 * - p50/p99 of the topic list (a project that grows), a status-filtered list, a small project's
 *   list and the article list, READS (1,000) requests one at a time after WARM_UP (100), once the
 *   server is quiet: its start-up crawls over and its workers' first passes done (waitUntilCrawled);
 *   every cursor page against the first page. Until 2026-11-25 it was 200 reads straight after the
 *   start, so a p99 was the second-slowest read, one pause decided it, and the near-empty side was
 *   read while that server crawled its 100 seeded sites (start-up work, not the idle cost of a
 *   read). Beside each, the same reads' time inside the server (inServerP50/P99) and the bench's own GC
 *   time meanwhile (benchGcMs), and reads go through node:http rather than fetch (less of the
 *   bench's own garbage in what it times);
 * - POST topics per second (4 at a time) and the server's CPU time per POST; cold start to ready; idle resident memory (after a GC);
 * - on the grown store, a rebuild of every read model by the CLI while the server runs (and the
 *   server's topic-list p99 meanwhile, asked 50 times a second) against the same CLI rebuild with the server stopped;
 * - bytes per event (the SQLite file and its WAL over the events in the log);
 * - retention: the year's webhook deliveries (one per published article, spread over the year
 *   that ends now) against those the retention pass keeps (its 30-day window).
 * The server runs in its own process (bench/scale/serverProcess.ts); growing goes straight through
 * the event store and the projections, in a process of its own (bench/scale/growProcess.ts) so the
 * bench that reads both stores has the same small heap for both (until 2026-11-25 it grew the year
 * in its own heap before reading the grown store), and the other consumers' checkpoints are then moved to the
 * head, as if they had handled the year's events as they came (the feed rows they would have
 * written are not made; the deliveries are).
 * bench/scale/tails.ts traces what a server does while idle and during the slowest reads.
 * Run: npx node bench/scale.bench.ts [SIZE]  → bench/results/scale.json
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { EMBEDDED_DB_FILE } from '../src/app/stores.ts';
import { BIG, projectIdOf, SMALL } from './scale/grow.ts';
import {
  eventsIn,
  growStoreApart,
  moveCheckpointsToHead,
  seedStore,
  type Retention,
} from './scale/growStore.ts';
import { get, startServer, stopServer, waitUntilCrawled, type Server } from './scale/server.ts';
import type { ServerTrace } from './scale/serverTrace.ts';

const SIZE = Number(process.argv[2] ?? 1_000_000);
/** The grown year ends now, so the server's own retention finds what a year of use would leave. */
const END_MS = Date.now();
/** Reads per list after WARM_UP: its p99 is then the 10th slowest, not the second slowest of 200, which one pause decided. */
const READS = 1_000;
const WARM_UP = 100;
const PAGES = 20;
const POSTS = 400;
const dir = mkdtempSync(join(tmpdir(), 'ink-bench-scale-'));
const file = join(dir, EMBEDDED_DB_FILE);
const CLI = join(import.meta.dirname, '../bin/inkstream.js');
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
let key = '';

/**
 * p50 and p99 of READS reads one at a time (the issue's figures, at the client); beside them the
 * same reads' time inside the server (its request event to the handler's end(), serverTrace.ts)
 * and the bench process's own GC time meanwhile: a slow read the server answered quickly was the
 * host's or the bench's, not the store's.
 */
async function latency(server: Server, path: string) {
  for (let i = 0; i < WARM_UP; i++) await get(server, path);
  let benchGcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) benchGcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  await server.ask({ trace: 'start', profile: false }, 'tracing');
  const times: number[] = [];
  for (let i = 0; i < READS; i++) times.push((await get(server, path)).ms);
  const inServer = (await server.ask<ServerTrace>({ trace: 'stop' }, 'trace')).requests.map(
    (request) => request.endMs - request.startMs,
  );
  observer.disconnect();
  return {
    p50: round(percentile(times, 50)),
    p99: round(percentile(times, 99)),
    inServerP50: round(percentile(inServer, 50)),
    inServerP99: round(percentile(inServer, 99)),
    benchGcMs: round(benchGcMs),
  };
}

/** Each of the first PAGES pages of the big project's topic list: the median of 5 reads of it. */
async function cursorPages(server: Server): Promise<number[]> {
  const medians: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < PAGES; page++) {
    const path = `/projects/${projectIdOf(BIG)}/topics?limit=50${cursor ? `&cursor=${cursor}` : ''}`;
    const times: number[] = [];
    let next: string | null = null;
    for (let i = 0; i < 5; i++) {
      const { ms, body } = await get(server, path);
      times.push(ms);
      next = body.nextCursor;
    }
    medians.push(round(percentile(times, 50)));
    if (!(cursor = next)) break;
  }
  return medians;
}

/** POSTs per second (4 at a time), and the server's CPU time per POST: on a loaded host the rate is mostly the host's, the CPU time much less so. */
async function postTopics(server: Server): Promise<{ perSecond: number; serverCpuUs: number }> {
  let next = 0;
  const cpuBefore = await server.ask<number>({ cpu: true }, 'cpu');
  const started = performance.now();
  const worker = async () => {
    while (next < POSTS) {
      const n = next++;
      const response = await fetch(`${server.url}/api/v1/projects/${projectIdOf(2)}/topics`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Posted ${n}` }),
      });
      if (response.status !== 201)
        throw new Error(`POST topics: ${response.status} ${await response.text()}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const perSecond = round(POSTS / ((performance.now() - started) / 1000), 0);
  return {
    perSecond,
    serverCpuUs: round(((await server.ask<number>({ cpu: true }, 'cpu')) - cpuBefore) / POSTS, 0),
  };
}

async function measure(label: string) {
  const server = await startServer(dir, key);
  key = server.key;
  const idleRss = await server.ask<number>({ rss: true }, 'rss');
  // The reads begin once the start-up crawls are over and the workers' first passes are done.
  const quietAfterMs = await waitUntilCrawled(server);
  const big = projectIdOf(BIG);
  const figures = {
    coldStartMs: round(server.coldStartMs, 0),
    idleRssMb: round(idleRss / 1_048_576, 1),
    readsBeganAfterReadyS: round(quietAfterMs / 1000, 1),
    topicList: await latency(server, `/projects/${big}/topics?limit=50`),
    statusFilteredList: await latency(server, `/projects/${big}/topics?status=scheduled&limit=50`),
    smallProjectList: await latency(server, `/projects/${projectIdOf(SMALL)}/topics?limit=50`),
    articleList: await latency(server, `/projects/${big}/articles?limit=50`),
    cursorPagesMs: await cursorPages(server),
  };
  const posts = await postTopics(server);
  const all = {
    ...figures,
    postTopicsPerSecond: posts.perSecond,
    postTopicsServerCpuUs: posts.serverCpuUs,
  };
  console.log(label, JSON.stringify(all));
  return { server, figures: all };
}

/**
 * The CLI's rebuild in a session of its own, as an operator's shell is apart from the server's
 * service. On Linux with autogroup scheduling (the default on desktops and these VMs) every session
 * gets an equal share of a busy host's CPU, so a CLI forked from the bench's session shares one
 * share with the server and the load generator, and its rate then measures the scheduler: the same
 * CPU time took twice the wall time (docs/rebuild-performance.md).
 */
function rebuildByCli(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'projections', 'rebuild'], {
      env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' },
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`projections rebuild exited with ${code}`));
      resolve(Number(/\((\d+) events\/s\)/.exec(stdout)?.[1] ?? 0));
    });
  });
}

/**
 * The CLI's rebuild while the server answers the topic list REQUESTS_PER_SECOND_DURING times a
 * second. Paced, not back to back: a client that keeps the server busy without pause takes a core
 * of two with the server, so the rebuild's rate then measures the machine's cores, not the rebuild.
 */
const REQUESTS_PER_SECOND_DURING = 50;

async function onlineRebuild(server: Server, idleP99: number) {
  const rebuild = rebuildByCli();
  let done = false;
  void rebuild
    .finally(() => {
      done = true;
    })
    .catch(() => {});
  const times: number[] = [];
  const started = performance.now();
  while (!done) {
    times.push((await get(server, `/projects/${projectIdOf(BIG)}/topics?limit=50`)).ms);
    const nextAt = started + (times.length * 1000) / REQUESTS_PER_SECOND_DURING;
    if (!done && nextAt > performance.now()) await sleep(nextAt - performance.now());
  }
  const rate = await rebuild;
  return {
    eventsPerSecond: rate,
    serverP99DuringMs: round(percentile(times, 99)),
    serverIdleP99Ms: idleP99,
    requestsDuring: times.length,
    requestsPerSecondDuring: REQUESTS_PER_SECOND_DURING,
  };
}

const bytesPerEvent = (events: bigint) =>
  round(
    (statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0)) /
      Number(events),
    0,
  );

await seedStore(file, { eventsPlanned: SIZE, endMs: END_MS });
const empty = await measure('near-empty');
await stopServer(empty.server);
const emptyEvents = await eventsIn(file);
const emptyBytesPerEvent = bytesPerEvent(emptyEvents);

const growStarted = performance.now();
const retention: Retention = await growStoreApart(file, SIZE, END_MS);
const growSeconds = round((performance.now() - growStarted) / 1000, 1);
const events = await eventsIn(file);
await moveCheckpointsToHead(file);

const grown = await measure('grown');
const online = await onlineRebuild(grown.server, grown.figures.topicList.p99);
await stopServer(grown.server);
const offline = await rebuildByCli();

const e = empty.figures;
const g = grown.figures;
const within = (grownMs: number, emptyMs: number, factor: number) =>
  grownMs <= emptyMs * factor + 2;
const firstPage = g.cursorPagesMs[0];
const result = {
  size: SIZE,
  events: Number(events),
  emptyEvents: Number(emptyEvents),
  growSeconds,
  host: { cpus: cpus().length, loadAverage: loadavg().map((n) => round(n)) },
  bytesPerEvent: { nearEmpty: emptyBytesPerEvent, grown: bytesPerEvent(events) },
  retention,
  nearEmpty: e,
  grown: g,
  rebuild: { offlineEventsPerSecond: offline, online },
  checks: {
    topicListP99: within(g.topicList.p99, e.topicList.p99, 1.2),
    statusFilteredListP99: within(g.statusFilteredList.p99, e.statusFilteredList.p99, 1.2),
    smallProjectListP99: within(g.smallProjectList.p99, e.smallProjectList.p99, 1.2),
    articleListP99: within(g.articleList.p99, e.articleList.p99, 1.2),
    everyCursorPage: g.cursorPagesMs.every((ms) => within(ms, firstPage, 1.5)),
    postTopics: g.postTopicsPerSecond >= 0.8 * e.postTopicsPerSecond,
    postTopicsServerCpu: g.postTopicsServerCpuUs <= e.postTopicsServerCpuUs / 0.8,
    coldStart: g.coldStartMs <= 1.2 * e.coldStartMs,
    idleMemory: g.idleRssMb - e.idleRssMb <= 40 && g.idleRssMb <= 250,
    onlineRebuildRate: online.eventsPerSecond >= 0.7 * offline,
    serverP99DuringRebuild: online.serverP99DuringMs <= 3 * online.serverIdleP99Ms,
  },
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results/scale.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
rmSync(dir, { recursive: true, force: true });
