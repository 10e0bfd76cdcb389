/**
 * API figures on the embedded default, servers in a child process, load from wrk (see load/wrk.ts):
 * - GET /api/v1/articles/:id through auth, rate limiting (raised) and the read model, against a
 *   bare node:http server returning the same bytes from memory: requests/s, the ratio, p99;
 * - POST /api/v1/projects/:id/topics: commands/s, then the log must hold exactly one
 *   TopicCreated per 201 (no lost or duplicate events).
 * Each measurement follows an unmeasured warm-up of the same shape; the server's CPU time per
 * request (process.cpuUsage) is reported beside it, a figure that neighbours on a shared machine
 * disturb less than throughput. Bare and Inkstream alternate over the rounds, and each figure is
 * the median over them (the ratio: of each round's own ratio).
 * Run: npx node bench/api.bench.ts   (BENCH_SECONDS: 5 s per measurement, BENCH_ROUNDS: 3)
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { checkExactlyOnce, type LoggedTopics } from './load/exactlyOnce.ts';
import { cpuTimes, stealPercent } from './load/hostSteal.ts';
import { acrossRounds, median, type Run } from './load/rounds.ts';
import { requireWrk, runWrk, type WrkResult } from './load/wrk.ts';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = 1;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGETS = { getRatio: 0.4, getP99Ms: 10, postPerSecond: 5000 };

type Ready = {
  inkstreamUrl: string;
  bareUrl: string;
  key: string;
  topicsProjectId: string;
  articleId: string;
  articleBytes: number;
};
const wrkVersion = requireWrk();
const loadAtStart = loadavg();

const child = fork(new URL('./load/apiServerProcess.ts', import.meta.url), {
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
const next = <T>(type: string) =>
  new Promise<T>((resolve, reject) => {
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
const serverCpuMicros = async () => {
  child.send({ type: 'cpu' });
  return (await next<{ micros: number }>('cpu')).micros;
};

// BENCH_PROFILE=<dir> writes a CPU profile of the server process there for each measured run.
const profileDir = process.env.BENCH_PROFILE;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const profiling = async (file?: string) => {
  child.send({ type: 'profile', file });
  await next('profiled');
};

let runs = 0;

/** A warm-up (returned too: its responses count for the exactly-once check), then the measurement. */
async function load(
  url: string,
  options: { headers: Record<string, string>; script?: string; profileAs: string },
): Promise<{ warmup: WrkResult; measured: Run }> {
  // Each run tags its POST titles ("Bench <run> <n>"), so every request of the bench has its own.
  const run = (seconds: number) =>
    runWrk({
      url,
      connections: CONNECTIONS,
      seconds,
      headers: options.headers,
      script: options.script,
      scriptArgs: [String(++runs)],
    });
  const warmup = await run(WARMUP_SECONDS);
  if (profileDir) await profiling();
  const before = await serverCpuMicros();
  const machineBefore = cpuTimes();
  const measured = await run(SECONDS);
  const hostStealPercent = stealPercent(machineBefore, cpuTimes());
  const cpuMicros = (await serverCpuMicros()) - before;
  if (profileDir)
    await profiling(join(profileDir, `${options.profileAs}-${Date.now()}.cpuprofile`));
  return {
    warmup,
    measured: {
      ...measured,
      serverCpuMicrosPerRequest: Math.round(cpuMicros / Math.max(1, measured.requests)),
      hostStealPercent,
    },
  };
}

// BENCH_ONLY=get|post runs one part (for profiling); the results file is written only for a full run.
const only = process.env.BENCH_ONLY;
const articleUrl = (origin: string) => `${origin}/api/v1/articles/${ready.articleId}`;
const getRounds: { bare: Run; inkstream: Run }[] = [];
const postRuns: WrkResult[] = [];
const postRounds: Run[] = [];
for (let round = 0; round < ROUNDS && only !== 'post'; round++) {
  const bare = await load(articleUrl(ready.bareUrl), { headers: auth, profileAs: 'bare' });
  const inkstream = await load(articleUrl(ready.inkstreamUrl), { headers: auth, profileAs: 'get' });
  getRounds.push({ bare: bare.measured, inkstream: inkstream.measured });
}
for (let round = 0; round < ROUNDS && only !== 'get'; round++) {
  const { warmup, measured } = await load(
    `${ready.inkstreamUrl}/api/v1/projects/${ready.topicsProjectId}/topics`,
    {
      headers: { ...auth, 'content-type': 'application/json' },
      script: 'createTopics.lua',
      profileAs: 'post',
    },
  );
  postRuns.push(warmup, measured);
  postRounds.push(measured);
}

child.send({ type: 'verify' });
const logged = await next<LoggedTopics>('verified');
child.send({ type: 'stop' });
await next('stopped');

const getFigures =
  getRounds.length > 0
    ? (() => {
        const [bare, inkstream] = [
          acrossRounds(getRounds.map((round) => round.bare)),
          acrossRounds(getRounds.map((round) => round.inkstream)),
        ];
        const ratio =
          Math.round(
            median(
              getRounds.map(
                (round) => round.inkstream.requestsPerSecond / round.bare.requestsPerSecond,
              ),
            ) * 1000,
          ) / 1000;
        return {
          bareNodeHttp: bare,
          inkstream,
          ratio,
          meetsRatioTarget: ratio >= TARGETS.getRatio,
          meetsP99Target: inkstream.latencyMs.p99 <= TARGETS.getP99Ms,
        };
      })()
    : null;
const postFigures =
  postRounds.length > 0
    ? (() => {
        const inkstream = acrossRounds(postRounds);
        return {
          inkstream,
          ...checkExactlyOnce(postRuns, logged, CONNECTIONS),
          meetsThroughputTarget: inkstream.requestsPerSecond >= TARGETS.postPerSecond,
        };
      })()
    : null;
const results = {
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadGenerator: `${wrkVersion} -t1 -c${CONNECTIONS}`,
    loadAverage: {
      atStart: loadAtStart.map((value) => Math.round(value * 100) / 100),
      atEnd: loadavg().map((value) => Math.round(value * 100) / 100),
    },
  },
  settings: {
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    rounds: ROUNDS,
    articleResponseBytes: ready.articleBytes,
  },
  getArticle: getFigures,
  createTopic: postFigures,
  targets: TARGETS,
};
if (!only) {
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL('./results/api.json', import.meta.url),
    `${JSON.stringify(results, null, 2)}\n`,
  );
}

const perRound = (runs: { requestsPerSecond: number }[]) =>
  runs.map((run) => run.requestsPerSecond).join(', ');
const steal = (runs: { hostStealPercent: number | null }[]) =>
  runs.map((run) => (run.hostStealPercent === null ? '?' : `${run.hostStealPercent}%`)).join(', ');
if (getFigures) {
  const { bareNodeHttp: b, inkstream: i } = getFigures;
  console.log(
    `GET /articles/:id   medians of ${ROUNDS}: bare node:http ${b.requestsPerSecond} req/s   inkstream ${i.requestsPerSecond} req/s   ratio ${getFigures.ratio} (target ≥ ${TARGETS.getRatio})`,
  );
  console.log(
    `                    rounds: bare ${perRound(b.rounds)}   inkstream ${perRound(i.rounds)}`,
  );
  console.log(
    `                    server CPU per request: bare ${b.serverCpuMicrosPerRequest} µs, inkstream ${i.serverCpuMicrosPerRequest} µs   host steal ${steal(i.rounds)}`,
  );
  console.log(
    `                    inkstream p50 ${i.latencyMs.p50} ms  p99 ${i.latencyMs.p99} ms (target ≤ ${TARGETS.getP99Ms})   bare p50 ${b.latencyMs.p50} ms  p99 ${b.latencyMs.p99} ms`,
  );
  console.log(
    `                    errors: bare ${JSON.stringify(b.errors)}  inkstream ${JSON.stringify(i.errors)}`,
  );
}
if (postFigures) {
  const p = postFigures.inkstream;
  console.log(
    `POST /projects/:id/topics  median ${p.requestsPerSecond} commands/s (target ≥ ${TARGETS.postPerSecond}; rounds ${perRound(p.rounds)})  p50 ${p.latencyMs.p50} ms  p99 ${p.latencyMs.p99} ms  server CPU ${p.serverCpuMicrosPerRequest} µs/command  host steal ${steal(p.rounds)}`,
  );
  console.log(
    `  ${postFigures.responses201} × 201, ${postFigures.topicCreatedEvents} TopicCreated in the log (${postFigures.inFlightAtStop} in flight when wrk stopped): ` +
      `${postFigures.exactlyOnce ? 'exactly once' : `MISMATCH (lost ${postFigures.lost}, duplicates ${postFigures.duplicates}, other responses ${postFigures.otherResponses})`}   statuses ${JSON.stringify(p.statuses)}`,
  );
}
console.log(
  `load average ${loadAtStart.map((value) => value.toFixed(2)).join(' ')} → ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}${only ? '' : '   Results: bench/results/api.json'}`,
);
if (postFigures && !postFigures.exactlyOnce) process.exitCode = 1;
