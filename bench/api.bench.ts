/**
 * API figures on the embedded default, servers in a child process, one keep-alive load generator:
 * - GET /api/v1/articles/:id through auth, rate limiting (raised) and the read model, against a
 *   bare node:http server returning the same bytes from memory: requests/s, the ratio, p99;
 * - POST /api/v1/projects/:id/topics: commands/s, then the log must hold exactly one
 *   TopicCreated per 201 (no lost or duplicate events).
 * Run: npx node bench/api.bench.ts   (BENCH_SECONDS to change the 5 s per measurement)
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { runLoad, type LoadRequest } from './load/loadGenerator.ts';

const CONNECTIONS = 50;
const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const WARMUP_MS = 1000;
const TARGETS = { getRatio: 0.4, getP99Ms: 10, postPerSecond: 5000 };

type Ready = { inkstreamUrl: string; bareUrl: string; key: string; topicsProjectId: string; articleId: string; articleBytes: number };
type Verified = { topicCreated: number; distinctTopicIds: number; distinctEventIds: number };

// BENCH_PROFILE=<dir> writes a CPU profile of the server process there.
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const child = fork(new URL('./load/apiServerProcess.ts', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [...process.execArgv, ...profile] });
const next = <T>(type: string) => new Promise<T>((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`server process exited with ${code}`)));
  const listener = (message: { type: string }) => { if (message.type === type) { child.off('message', listener); resolve(message as T); } };
  child.on('message', listener);
});

const ready = await next<Ready>('ready');
const auth = { authorization: `Bearer ${ready.key}` };
const getArticle = (): LoadRequest => ({ method: 'GET', path: `/api/v1/articles/${ready.articleId}`, headers: auth });
const serverCpuMicros = async () => { child.send({ type: 'cpu' }); return (await next<{ micros: number }>('cpu')).micros; };

/** One measurement, with the server process's CPU time per request: a figure that neighbours on a shared machine disturb less. */
async function load(origin: string, request: () => LoadRequest, onResponse?: (status: number, body: string) => void) {
  const before = await serverCpuMicros();
  const result = await runLoad({ origin, connections: CONNECTIONS, durationMs: DURATION_MS, warmupMs: WARMUP_MS, request, onResponse });
  const cpuMicros = (await serverCpuMicros()) - before;
  return { ...result, serverCpuMicrosPerRequest: Math.round(cpuMicros / Math.max(1, result.requests + result.warmupRequests)) };
}

// BENCH_ONLY=get|post runs one part (for profiling); the results file is written only for a full run.
const only = process.env.BENCH_ONLY;
const skipped = { requests: 0, warmupRequests: 0, seconds: 0, requestsPerSecond: 0, latencyMs: { p50: 0, p90: 0, p99: 0, max: 0 }, statuses: {}, serverCpuMicrosPerRequest: 0 };
const bare = only === 'post' ? skipped : await load(ready.bareUrl, getArticle);
const inkstreamGet = only === 'post' ? skipped : await load(ready.inkstreamUrl, getArticle);

let created = 0;
const topicIds = new Set<string>();
let sequence = 0;
const inkstreamPost = only === 'get' ? skipped : await load(ready.inkstreamUrl, () => ({
  method: 'POST', path: `/api/v1/projects/${ready.topicsProjectId}/topics`,
  headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: `Topic ${sequence++}`, keyword: 'bench' }),
}), (status, body) => {
  if (status !== 201) return;
  created++;
  topicIds.add(JSON.parse(body).topic.id);
});

child.send({ type: 'verify' });
const verified = await next<Verified>('verified');
child.send({ type: 'stop' });
await next('stopped');

const ratio = Math.round((inkstreamGet.requestsPerSecond / bare.requestsPerSecond) * 1000) / 1000;
const exactlyOnce = verified.topicCreated === created && verified.distinctTopicIds === created && verified.distinctEventIds === created && topicIds.size === created;
const results = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
  settings: { connections: CONNECTIONS, seconds: DURATION_MS / 1000, warmupSeconds: WARMUP_MS / 1000, articleResponseBytes: ready.articleBytes },
  getArticle: {
    bareNodeHttp: bare, inkstream: inkstreamGet, ratio,
    meetsRatioTarget: ratio >= TARGETS.getRatio, meetsP99Target: inkstreamGet.latencyMs.p99 <= TARGETS.getP99Ms,
  },
  createTopic: {
    inkstream: inkstreamPost, responses201: created, topicCreatedEvents: verified.topicCreated, exactlyOnce,
    meetsThroughputTarget: inkstreamPost.requestsPerSecond >= TARGETS.postPerSecond,
  },
  targets: TARGETS,
};
if (!only) {
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/api.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
}

console.log(`GET /articles/:id   bare node:http ${bare.requestsPerSecond} req/s   inkstream ${inkstreamGet.requestsPerSecond} req/s   ratio ${ratio} (target ≥ ${TARGETS.getRatio})`);
console.log(`                    server CPU per request: bare ${bare.serverCpuMicrosPerRequest} µs, inkstream ${inkstreamGet.serverCpuMicrosPerRequest} µs`);
console.log(`                    inkstream p50 ${inkstreamGet.latencyMs.p50} ms  p99 ${inkstreamGet.latencyMs.p99} ms (target ≤ ${TARGETS.getP99Ms})   bare p99 ${bare.latencyMs.p99} ms`);
console.log(`POST /projects/:id/topics  ${inkstreamPost.requestsPerSecond} commands/s (target ≥ ${TARGETS.postPerSecond})  p99 ${inkstreamPost.latencyMs.p99} ms  server CPU ${inkstreamPost.serverCpuMicrosPerRequest} µs/command`);
console.log(`  ${created} × 201, ${verified.topicCreated} TopicCreated in the log: ${exactlyOnce ? 'exactly once' : 'MISMATCH'}   statuses ${JSON.stringify(inkstreamPost.statuses)}`);
console.log('Results: bench/results/api.json');
if (!exactlyOnce) process.exitCode = 1;
