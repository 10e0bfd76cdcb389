/**
 * One tenant against another (issue 32, docs/security.md): on a store of SIZE events, another
 * account's list (`GET /api/v1/projects`) and `/healthz` are timed for a while with no abuse, then
 * for as long again while one account, at once and as fast as its limits allow: replays the live
 * stream from the oldest position the server still replays (and from 0, which is refused), mints
 * access tokens from a signed-in session, and creates API keys. Figures: p50 / p99 / max of both,
 * with and without the abuse, and whether the abused p99 stays within 2× + 10 ms of the quiet one
 * and /healthz under 100 ms. Client and server share this process (as in liveLatency.bench.ts),
 * so the client's own work is in both columns.
 * Run: npx node bench/fairness.bench.ts [SIZE] [SECONDS] [replay,tokens,keys]
 *   → bench/results/fairness.json (the third argument picks the abuses; all three by default)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { startInkstream } from '../test/support/inkstream.ts';
import { injectOtherAccountsEvents } from '../test/support/injectEvents.ts';
import { signedInMember } from '../test/support/signedInMember.ts';

const size = Number(process.argv[2] ?? 200_000);
const seconds = Number(process.argv[3] ?? 20);
const abuses = new Set((process.argv[4] ?? 'replay,tokens,keys').split(','));

const app = await startInkstream();
const started = performance.now();
injectOtherAccountsEvents(app.dataDir, size, 'acc_everyone_else');
for (let i = 0; i < 5; i++) {
  const created = await app
    .api()
    .post('/projects', { name: `Victim ${i}`, websiteUrl: 'http://127.0.0.1:9/' });
  if (created.status !== 201) throw new Error(`POST /projects answered ${created.status}`);
}
const head = await app.platform.eventStore.headPosition();
if (!(await app.platform.readModels.catchUp(30 * 60_000, head)))
  throw new Error('the read models did not reach the head');
const seededS = (performance.now() - started) / 1000;

// The victim reads with ten keys in turn, each within its 120 a minute (at most 20 reads a second).
const victimKeys = [app.key];
for (let i = 1; i < 10; i++) victimKeys.push(await app.newKey('test'));
const abuserKey = await app.newKey('abuser');
const owner = await signedInMember(app, {
  account: 'abuser',
  email: 'owner@abuser.example',
  role: 'owner',
});
const viewer = await signedInMember(app, {
  account: 'abuser',
  email: 'viewer@abuser.example',
  role: 'viewer',
});

type Timing = { listMs: number[]; healthMs: number[] };

async function timed(url: string, headers: Record<string, string> = {}): Promise<number> {
  const at = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - at;
}

/** The victim: its list and the health check, one after another, for `ms`. */
async function measure(ms: number): Promise<Timing> {
  const timing: Timing = { listMs: [], healthMs: [] };
  const until = performance.now() + ms;
  let turn = 0;
  while (performance.now() < until) {
    const key = victimKeys[turn++ % victimKeys.length];
    timing.listMs.push(
      await timed(`${app.url}/api/v1/projects`, { authorization: `Bearer ${key}` }),
    );
    timing.healthMs.push(await timed(`${app.url}/healthz`));
    await wait(50);
  }
  return timing;
}

const counts = {
  replays: 0,
  expired: 0,
  replayRefused: 0,
  tokens: 0,
  keys: 0,
  keysCapped: 0,
  refused: 0,
};
let abusing = true;

/** Waits out a 429's Retry-After (at most a few seconds at a time, so the loop ends with the run). */
const backOff = async (response: Response) => {
  counts.refused++;
  const retry = Number(response.headers.get('retry-after') ?? 1);
  await wait(Math.min(retry, 2) * 1000);
};

async function replayLoop(): Promise<void> {
  const resumeEvents = app.platform.config.INKSTREAM_LIVE_RESUME_EVENTS;
  while (abusing) {
    const now = await app.platform.eventStore.headPosition();
    for (const after of [0n, now - BigInt(resumeEvents)]) {
      const abort = new AbortController();
      const response = await fetch(`${app.url}/api/v1/live`, {
        headers: { authorization: `Bearer ${abuserKey}`, 'last-event-id': String(after) },
        signal: abort.signal,
      });
      if (response.status === 410) counts.expired++;
      if (response.status === 429) {
        counts.replayRefused++;
        await backOff(response);
      }
      if (response.status === 200) {
        counts.replays++;
        // Read until the replay reaches the head (the server sends `ready` first, then only this
        // account's changes: none), then drop the connection and start again.
        await wait(500);
        abort.abort();
      } else await response.arrayBuffer();
    }
  }
}

async function tokenLoop(): Promise<void> {
  while (abusing) {
    const answer = await viewer.request('POST', '/access-token');
    if (answer.status === 200) counts.tokens++;
    else if (answer.status === 429) {
      counts.refused++;
      await wait(Math.min(Number(answer.headers.get('retry-after') ?? 1), 2) * 1000);
    }
  }
}

async function keyLoop(): Promise<void> {
  let n = 0;
  while (abusing) {
    const answer = await owner.request('POST', '/keys', { name: `k${n++}` });
    if (answer.status === 201) counts.keys++;
    else if (answer.status === 429) {
      counts.refused++;
      await wait(Math.min(Number(answer.headers.get('retry-after') ?? 1), 2) * 1000);
    } else if (answer.status === 409) {
      // The account holds the most keys it may: it keeps asking, as an abuser would.
      counts.keysCapped++;
      await wait(100);
    } else throw new Error(`POST /app/api/keys answered ${answer.status}`);
  }
}

const quiet = await measure(seconds * 1000);
const loops = [
  abuses.has('replay') && replayLoop(),
  abuses.has('tokens') && tokenLoop(),
  abuses.has('keys') && keyLoop(),
];
const abused = await measure(seconds * 1000);
abusing = false;
await Promise.all(loops);
await app.close();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  const value = sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return Math.round(value * 100) / 100;
};
const figures = (values: number[]) => ({
  n: values.length,
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: percentile(values, 100),
});
const result = {
  date: new Date().toISOString(),
  storeEvents: Number(head) + 1,
  seededSeconds: Math.round(seededS),
  secondsEach: seconds,
  cpus: cpus().length,
  loadAverage: loadavg()[0],
  list: { quiet: figures(quiet.listMs), abused: figures(abused.listMs) },
  healthz: { quiet: figures(quiet.healthMs), abused: figures(abused.healthMs) },
  abuses: [...abuses],
  abuse: counts,
};
const listBound = 2 * result.list.quiet.p99 + 10;
const verdict = {
  listP99WithinBound: result.list.abused.p99 <= listBound,
  listBoundMs: Math.round(listBound * 100) / 100,
  healthzUnder100Ms: result.healthz.abused.max < 100,
};
console.log(JSON.stringify({ ...result, verdict }, null, 2));
const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'fairness.json'), `${JSON.stringify({ ...result, verdict }, null, 2)}\n`);
