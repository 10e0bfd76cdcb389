/**
 * Where a list's slow requests come from: reads the scale bench's lists one at a time from a
 * server on a grown store (and on the near-empty one before it grows) while the server records
 * what ran meanwhile (serverTrace.ts: its requests, its garbage collections, a CPU profile), then
 * prints, for the slowest reads, the client's and the server's time and what the server's CPU
 * was doing in that window, by the outermost and innermost function of our code on the stack.
 *
 * Run: npx node bench/scale/tails.ts [SIZE] [DIR]   (env: TAILS_READS per list, TAILS_SLOWEST shown, TAILS_IDLE_MS)
 * SIZE 0 grows nothing: the second start is then the near-empty store's, idle (its crawls done at the first).
 * DIR keeps the grown store for another run (made when it has none); default: a temporary one,
 * removed at the end. The full trace is written to DIR/trace-<label>.json.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { EMBEDDED_DB_FILE } from '../../src/app/stores.ts';
import { BIG, projectIdOf } from './grow.ts';
import { growStoreApart, moveCheckpointsToHead, seedStore } from './growStore.ts';
import { get, startServer, stopServer, waitUntilCrawled, type Server } from './server.ts';
import { monotonicMs, type CpuProfile, type ServerTrace } from './serverTrace.ts';

const SIZE = Number(process.argv[2] ?? 100_000);
const keep = process.argv[3];
const dir = keep ?? mkdtempSync(join(tmpdir(), 'ink-bench-tails-'));
const file = join(dir, EMBEDDED_DB_FILE);
const READS = Number(process.env.TAILS_READS ?? 1_000);
const SLOWEST = Number(process.env.TAILS_SLOWEST ?? 12);
/** How long after ready the server is traced idle (its start-up crawls and the workers' first passes included) before the reads. */
const IDLE_MS = Number(process.env.TAILS_IDLE_MS ?? 65_000);
const LISTS = {
  topicList: `/projects/${projectIdOf(BIG)}/topics?limit=50`,
  articleList: `/projects/${projectIdOf(BIG)}/articles?limit=50`,
};

type Read = { list: string; startMs: number; endMs: number };

/** The profiler's sampling interval (serverTrace.ts): a sample stands for this much CPU time. */
const SAMPLE_MS = 0.25;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor((p / 100) * values.length))
  ];
const round = (n: number) => Number(n.toFixed(2));

/** Each profile sample's time, how long it stands for (until the next sample) and stack (leaf first), on the monotonic clock. */
function samplesOf(
  profile: CpuProfile,
): { ms: number; durationMs: number; stack: { functionName: string; url: string }[] }[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  let us = profile.startTime;
  return profile.samples.map((id, i) => {
    us += profile.timeDeltas[i];
    const stack = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      stack.push(byId.get(at)!.callFrame);
    return { ms: us / 1000, durationMs: (profile.timeDeltas[i + 1] ?? 250) / 1000, stack };
  });
}

const ours = (url: string) => /\/(src|projections|bench)\//.test(url);
const label = (frame: { functionName: string; url: string }) =>
  `${frame.url ? `${basename(frame.url)}:` : ''}${frame.functionName || '(anonymous)'}`;

function activity(stack: { functionName: string; url: string }[]): {
  outer: string;
  inner: string;
} {
  const mine = stack.filter((frame) => ours(frame.url));
  const leaf = label(stack[0]);
  return {
    outer: mine.length ? label(mine[mine.length - 1]) : leaf,
    inner: mine.length ? `${label(mine[0])} > ${leaf}` : leaf,
  };
}

function top(totals: Map<string, number>, n: number): string {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => `${round(ms)} ms ${name}`)
    .join('; ');
}

/** The bench process's own garbage collections, on the monotonic clock: a pause here delays a read too. */
function watchClientGcs(): { gcs: { startMs: number; ms: number }[]; stop(): void } {
  const perfToMonotonic = monotonicMs() - performance.now();
  const gcs: { startMs: number; ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      gcs.push({ startMs: entry.startTime + perfToMonotonic, ms: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  return { gcs, stop: () => observer.disconnect() };
}

/** The server left alone from ready for IDLE_MS: what its CPU did, and its longest busy stretches (what a read arriving then would wait behind). */
async function idle(server: Server, name: string) {
  await server.ask({ trace: 'start' }, 'tracing');
  const startedMs = performance.now();
  const crawledMs = await waitUntilCrawled(server, 0);
  await sleep(Math.max(0, IDLE_MS - (performance.now() - startedMs)));
  const trace = await server.ask<ServerTrace>({ trace: 'stop' }, 'trace');
  writeFileSync(join(dir, `idle-${name}.json`), JSON.stringify(trace));
  const busy = samplesOf(trace.profile!).filter((sample) => label(sample.stack[0]) !== '(idle)');
  const byOuter = new Map<string, number>();
  for (const sample of busy)
    byOuter.set(
      activity(sample.stack).outer,
      (byOuter.get(activity(sample.stack).outer) ?? 0) + SAMPLE_MS,
    );
  console.log(
    `\n== ${name}, idle ${round(IDLE_MS / 1000)} s from ready (crawls over after ${round(crawledMs / 1000)} s): ${round(busy.length * SAMPLE_MS)} ms busy, ${trace.gcs.length} GCs (${round(trace.gcs.reduce((sum, gc) => sum + gc.ms, 0))} ms); load average ${loadavg().map(round).join(' ')}`,
  );
  console.log(`  busy by outermost function: ${top(byOuter, 15)}`);
  const stretches: { startMs: number; endMs: number; what: Map<string, number> }[] = [];
  for (const sample of busy) {
    let last = stretches[stretches.length - 1];
    if (!last || sample.ms - last.endMs > 2 * SAMPLE_MS)
      stretches.push((last = { startMs: sample.ms, endMs: sample.ms, what: new Map() }));
    last.endMs = sample.ms + SAMPLE_MS;
    const { inner } = activity(sample.stack);
    last.what.set(inner, (last.what.get(inner) ?? 0) + SAMPLE_MS);
  }
  stretches.sort((a, b) => b.endMs - b.startMs - (a.endMs - a.startMs));
  for (const stretch of stretches.slice(0, 8)) {
    console.log(
      `  stretch ${round(stretch.endMs - stretch.startMs)} ms at +${round((stretch.startMs - busy[0].ms) / 1000)} s: ${top(stretch.what, 4)}`,
    );
  }
}

async function traced(server: Server, name: string) {
  for (const path of Object.values(LISTS)) for (let i = 0; i < 100; i++) await get(server, path);
  await server.ask({ trace: 'start' }, 'tracing');
  const client = watchClientGcs();
  const reads: Read[] = [];
  for (const [list, path] of Object.entries(LISTS)) {
    for (let i = 0; i < READS; i++) {
      const startMs = monotonicMs();
      await get(server, path);
      reads.push({ list, startMs, endMs: monotonicMs() });
    }
  }
  const trace = await server.ask<ServerTrace>({ trace: 'stop' }, 'trace');
  client.stop();
  writeFileSync(
    join(dir, `trace-${name}.json`),
    JSON.stringify({ reads, clientGcs: client.gcs, ...trace }),
  );
  report(name, reads, trace, client.gcs);
}

function report(
  name: string,
  reads: Read[],
  trace: ServerTrace,
  clientGcs: { startMs: number; ms: number }[],
): void {
  const samples = samplesOf(trace.profile!);
  const served = trace.requests.filter((request) =>
    Object.values(LISTS).some((path) => request.url === `/api/v1${path}`),
  );
  console.log(
    `\n== ${name}: ${reads.length} reads, ${served.length} seen by the server, ${trace.gcs.length} GCs, load average ${loadavg().map(round).join(' ')}`,
  );
  for (const list of Object.keys(LISTS)) {
    const mine = reads
      .map((read, i) => ({ ...read, server: served[i] }))
      .filter((read) => read.list === list);
    const client = mine.map((read) => read.endMs - read.startMs);
    const server = mine.map((read) => read.server.endMs - read.server.startMs);
    console.log(
      `${list}: client p50 ${round(percentile(client, 50))} p99 ${round(percentile(client, 99))} max ${round(Math.max(...client))}; server p50 ${round(percentile(server, 50))} p99 ${round(percentile(server, 99))}`,
    );
    const slowest = [...mine]
      .sort((a, b) => b.endMs - b.startMs - (a.endMs - a.startMs))
      .slice(0, SLOWEST);
    for (const read of slowest) {
      const inWindow = samples.filter(
        (sample) => sample.ms >= read.startMs && sample.ms <= read.endMs,
      );
      const outer = new Map<string, number>();
      const inner = new Map<string, number>();
      for (const sample of inWindow) {
        const { outer: o, inner: i } = activity(sample.stack);
        outer.set(o, (outer.get(o) ?? 0) + sample.durationMs);
        inner.set(i, (inner.get(i) ?? 0) + sample.durationMs);
      }
      const overlapping = (gc: { startMs: number; ms: number }) =>
        gc.startMs < read.endMs && gc.startMs + gc.ms > read.startMs;
      const serverGcs = trace.gcs
        .filter(overlapping)
        .map((gc) => `${round(gc.ms)} ms (kind ${gc.kind})`);
      const benchGcs = clientGcs.filter(overlapping).map((gc) => `${round(gc.ms)} ms`);
      console.log(
        `  ${round(read.endMs - read.startMs)} ms at client, ${round(read.server.endMs - read.server.startMs)} ms in server, at +${round(read.startMs - reads[0].startMs)} ms; server GC ${serverGcs.join(', ') || 'none'}; bench GC ${benchGcs.join(', ') || 'none'}`,
      );
      console.log(`    outer: ${top(outer, 5)}`);
      console.log(`    inner: ${top(inner, 5)}`);
    }
  }
}

let key = '';
const grown = existsSync(join(dir, 'grown'));
if (!grown) {
  mkdirSync(dir, { recursive: true });
  await seedStore(file, { eventsPlanned: SIZE, endMs: Date.now() });
  const first = await startServer(dir, key);
  key = first.key;
  await idle(first, 'near-empty');
  await traced(first, 'near-empty');
  await stopServer(first);
  await growStoreApart(file, SIZE, Date.now());
  await moveCheckpointsToHead(file);
  writeFileSync(join(dir, 'grown'), key);
} else {
  key = readFileSync(join(dir, 'grown'), 'utf8');
}
const server = await startServer(dir, key);
console.log(`grown: cold start ${round(server.coldStartMs)} ms`);
await idle(server, 'grown');
await traced(server, 'grown');
await stopServer(server);
if (!keep) rmSync(dir, { recursive: true, force: true });
