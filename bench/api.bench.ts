/**
 * API figures on the embedded default, servers in a child process, load from wrk (see load/wrk.ts):
 * - GET /api/v1/articles/:id through auth, rate limiting (raised) and the read model, against a
 *   bare node:http server returning the same bytes from memory: requests/s, the ratio, p99;
 * - POST /api/v1/projects/:id/topics: commands/s, then the log must hold exactly one
 *   TopicCreated per 201 (no lost or duplicate events).
 * Each measurement follows an unmeasured warm-up of the same shape; the server's CPU time per
 * request (process.cpuUsage) is reported beside it, a figure that neighbours on a shared machine
 * disturb less than throughput.
 * Run: npx node bench/api.bench.ts   (BENCH_SECONDS to change the 5 s per measurement)
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { requireWrk, runWrk, type WrkResult } from './load/wrk.ts';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = 1;
const TARGETS = { getRatio: 0.4, getP99Ms: 10, postPerSecond: 5000 };

type Ready = { inkstreamUrl: string; bareUrl: string; key: string; topicsProjectId: string; articleId: string; articleBytes: number };
type Verified = { topics: { topicId: string; title: string }[]; distinctEventIds: number };

const wrkVersion = requireWrk();

const child = fork(new URL('./load/apiServerProcess.ts', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const next = <T>(type: string) => new Promise<T>((resolve, reject) => {
  const exited = (code: number | null) => reject(new Error(`server process exited with ${code}`));
  const listener = (message: { type: string }) => {
    if (message.type !== type) return;
    child.off('message', listener);
    child.off('exit', exited);
    resolve(message as T);
  };
  child.once('exit', exited);
  child.on('message', listener);
});

const ready = await next<Ready>('ready');
const auth = { authorization: `Bearer ${ready.key}` };
const serverCpuMicros = async () => { child.send({ type: 'cpu' }); return (await next<{ micros: number }>('cpu')).micros; };

type Measured = { warmup: WrkResult; measured: WrkResult & { serverCpuMicrosPerRequest: number } };

// BENCH_PROFILE=<dir> writes a CPU profile of the server process there for each measured Inkstream run.
const profileDir = process.env.BENCH_PROFILE;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const profiling = async (file?: string) => { child.send({ type: 'profile', file }); await next('profiled'); };

/** A warm-up, then the measurement with the server process's CPU time per request. */
async function load(url: string, options: { headers: Record<string, string>; script?: string; profileAs?: string }): Promise<Measured> {
  const run = (seconds: number, tag: string) => runWrk({ url, connections: CONNECTIONS, seconds, headers: options.headers, script: options.script, scriptArgs: [tag] });
  const warmup = await run(WARMUP_SECONDS, 'warmup');
  const profiled = profileDir && options.profileAs;
  if (profiled) await profiling();
  const before = await serverCpuMicros();
  const measured = await run(SECONDS, 'measured');
  const cpuMicros = (await serverCpuMicros()) - before;
  if (profiled) await profiling(join(profileDir, `${options.profileAs}-${Date.now()}.cpuprofile`));
  return { warmup, measured: { ...measured, serverCpuMicrosPerRequest: Math.round(cpuMicros / Math.max(1, measured.requests)) } };
}

const summary = ({ created: _created, statuses, ...rest }: Measured['measured']) => (Object.keys(statuses).length ? { ...rest, statuses } : rest);

// BENCH_ONLY=get|post runs one part (for profiling); the results file is written only for a full run.
const only = process.env.BENCH_ONLY;
const articleUrl = (origin: string) => `${origin}/api/v1/articles/${ready.articleId}`;
const bare = only === 'post' ? null : await load(articleUrl(ready.bareUrl), { headers: auth, profileAs: 'bare' });
const inkstreamGet = only === 'post' ? null : await load(articleUrl(ready.inkstreamUrl), { headers: auth, profileAs: 'get' });
const inkstreamPost = only === 'get' ? null : await load(`${ready.inkstreamUrl}/api/v1/projects/${ready.topicsProjectId}/topics`, {
  headers: { ...auth, 'content-type': 'application/json' }, script: 'createTopics.lua', profileAs: 'post',
});

child.send({ type: 'verify' });
const verified = await next<Verified>('verified');
child.send({ type: 'stop' });
await next('stopped');

/**
 * Every 201's topic is in the log, once; no request was decided twice (titles are unique per
 * request); and the only topics nobody was told about are the requests still in flight when wrk
 * stopped (at most one per connection and run: wrk closes them without reading the answer).
 */
function exactlyOnce(runs: WrkResult[]) {
  const acknowledged = runs.flatMap((run) => run.created);
  const answered = new Set(acknowledged);
  const logged = new Set(verified.topics.map((topic) => topic.topicId));
  const responses201 = runs.reduce((sum, run) => sum + (run.statuses['201'] ?? 0), 0);
  const otherResponses = runs.reduce((sum, run) => sum + run.requests - (run.statuses['201'] ?? 0) + run.errors.timeout, 0);
  const lost = acknowledged.filter((id) => !logged.has(id)).length;
  const count = verified.topics.length;
  const duplicates = (count - logged.size) + (count - new Set(verified.topics.map((topic) => topic.title)).size)
    + (count - verified.distinctEventIds) + (acknowledged.length - answered.size);
  const inFlightAtStop = verified.topics.filter((topic) => !answered.has(topic.topicId)).length;
  const ok = lost === 0 && duplicates === 0 && otherResponses === 0 && responses201 === acknowledged.length && inFlightAtStop <= CONNECTIONS * runs.length;
  return { ok, responses201, topicCreatedEvents: count, lost, duplicates, otherResponses, inFlightAtStop };
}

const getFigures = bare && inkstreamGet && (() => {
  const ratio = Math.round((inkstreamGet.measured.requestsPerSecond / bare.measured.requestsPerSecond) * 1000) / 1000;
  return {
    bareNodeHttp: summary(bare.measured), inkstream: summary(inkstreamGet.measured), ratio,
    meetsRatioTarget: ratio >= TARGETS.getRatio, meetsP99Target: inkstreamGet.measured.latencyMs.p99 <= TARGETS.getP99Ms,
  };
})();
const check = inkstreamPost && exactlyOnce([inkstreamPost.warmup, inkstreamPost.measured]);
const results = {
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version, loadGenerator: `${wrkVersion} -t1 -c${CONNECTIONS}` },
  settings: { connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, articleResponseBytes: ready.articleBytes },
  getArticle: getFigures,
  createTopic: inkstreamPost && check && {
    inkstream: summary(inkstreamPost.measured), ...check, exactlyOnce: check.ok,
    meetsThroughputTarget: inkstreamPost.measured.requestsPerSecond >= TARGETS.postPerSecond,
  },
  targets: TARGETS,
};
if (!only) {
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/api.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
}

if (bare && inkstreamGet && getFigures) {
  const [b, i] = [bare.measured, inkstreamGet.measured];
  console.log(`GET /articles/:id   bare node:http ${b.requestsPerSecond} req/s   inkstream ${i.requestsPerSecond} req/s   ratio ${getFigures.ratio} (target ≥ ${TARGETS.getRatio})`);
  console.log(`                    server CPU per request: bare ${b.serverCpuMicrosPerRequest} µs, inkstream ${i.serverCpuMicrosPerRequest} µs`);
  console.log(`                    inkstream p50 ${i.latencyMs.p50} ms  p99 ${i.latencyMs.p99} ms (target ≤ ${TARGETS.getP99Ms})   bare p50 ${b.latencyMs.p50} ms  p99 ${b.latencyMs.p99} ms`);
  console.log(`                    errors: bare ${JSON.stringify(b.errors)}  inkstream ${JSON.stringify(i.errors)}`);
}
if (inkstreamPost && check) {
  const p = inkstreamPost.measured;
  console.log(`POST /projects/:id/topics  ${p.requestsPerSecond} commands/s (target ≥ ${TARGETS.postPerSecond})  p50 ${p.latencyMs.p50} ms  p99 ${p.latencyMs.p99} ms  server CPU ${p.serverCpuMicrosPerRequest} µs/command`);
  console.log(`  ${check.responses201} × 201, ${check.topicCreatedEvents} TopicCreated in the log (${check.inFlightAtStop} in flight when wrk stopped): ` +
    `${check.ok ? 'exactly once' : `MISMATCH (lost ${check.lost}, duplicates ${check.duplicates}, other responses ${check.otherResponses})`}   statuses ${JSON.stringify(p.statuses)}`);
}
if (!only) console.log('Results: bench/results/api.json');
if (check && !check.ok) process.exitCode = 1;
