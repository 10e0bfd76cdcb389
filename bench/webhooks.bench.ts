/**
 * Webhook fan-out: 1,000 events to 10 local HTTPS endpoints (receivers in a child process).
 * - burst: all 1,000 appended at once; deliveries/s from the first append to the last receipt;
 * - paced: 1,000 appended at 100 events/s (1,000 deliveries/s offered, well below capacity) and at
 *   200 events/s (2,000 deliveries/s, the throughput target itself); p99 append → receipt;
 * - paced at 100 events/s with an 11th endpoint that accepts connections and never answers: the
 *   other endpoints' p99;
 * - baseline: the same number of bare POSTs through the same SSRF-guarded client to the same
 *   receivers, with the same concurrency, in the same run (what HTTPS alone costs here).
 * Each run first sends 100 unmeasured events, so that connections are open and code is warm, as
 * in a server that has been running (80 TLS handshakes would otherwise land in the measurement).
 * Run: npx node bench/webhooks.bench.ts  → bench/results/webhooks.json
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import tls from 'node:tls';
import selfsigned from 'selfsigned';
import { articleStream } from '../src/domain/articles/decide.ts';
import { startBackground } from '../src/app/background.ts';
import { loadConfig } from '../src/core/config.ts';
import { createLogger } from '../src/core/logger.ts';
import { createSafeHttpClient } from '../src/integrations/safeHttp/index.ts';
import { createPlatform } from '../src/app/platform.ts';
import { CONCURRENCY_PER_ENDPOINT } from '../src/features/webhooks/delivery/inFlight.ts';
import { webhookStream } from '../src/domain/webhooks/decide.ts';
import { webhooksFeature } from '../src/features/webhooks/index.ts';
import { generateWebhookSecret } from '../src/features/webhooks/endpoints/secret.ts';

const EVENTS = 1_000;
const ENDPOINTS = 10;
const PACED_EVENTS_PER_SECOND = 100;
const TARGET_EVENTS_PER_SECOND = 200;
const ROUNDS = 3;
const WARMUP_EVENTS = 100;
const accountId = 'acc_bench00000000000000000000';

const ca = await selfsigned.generate([{ name: 'commonName', value: 'bench CA' }], {
  keyType: 'ec',
  algorithm: 'sha256',
  extensions: [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ],
});
const leaf = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
  keyType: 'ec',
  algorithm: 'sha256',
  ca: { key: ca.private, cert: ca.cert },
  extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
});
tls.setDefaultCACertificates([...tls.getCACertificates('default'), ca.cert]);

const child = spawn(
  process.execPath,
  [
    join(import.meta.dirname, 'webhookReceivers.ts'),
    JSON.stringify({ key: leaf.private, cert: leaf.cert, ports: ENDPOINTS }),
  ],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
const nextLine = async () => String((await lines.next()).value);
const ports = JSON.parse(await nextLine()) as { live: number[]; dead: number };
const ask = async (command: string) => {
  child.stdin!.write(`${command}\n`);
  return nextLine();
};

type Run = {
  deliveries: number;
  seconds: number;
  deliveriesPerSecond: number;
  senderCpuMicrosPerDelivery: number;
  eventLoopDelayMs: { p99: number; max: number };
  latencyMs: { p50: number; p90: number; p99: number; max: number };
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round2 = (value: number) => Math.round(value * 100) / 100;

async function run(options: {
  pacedPerSecond: number | null;
  deadEndpoint: boolean;
}): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'inkstream-webhook-bench-'));
  const platform = await createPlatform(
    loadConfig({
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      INKSTREAM_ALLOW_PRIVATE_URLS: '1',
      INKSTREAM_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
    }),
    createLogger('silent'),
  );
  const context = (commandId: string) => ({
    accountId,
    actor: { kind: 'system' as const, worker: 'bench' },
    correlationId: commandId,
    requestId: commandId,
    commandId,
  });
  const urls = [
    ...ports.live.map((port) => `https://127.0.0.1:${port}/hook`),
    ...(options.deadEndpoint ? [`https://127.0.0.1:${ports.dead}/hook`] : []),
  ];
  for (const url of urls) {
    const endpointId = platform.ids.next('whk');
    await platform.commands.execute(
      webhookStream,
      endpointId,
      {
        type: 'RegisterEndpoint',
        endpointId,
        accountId,
        url,
        events: null,
        sealedSecret: platform.secrets.seal(generateWebhookSecret(), {
          kind: 'webhook-endpoint-secret',
          accountId,
          recordId: endpointId,
        }),
        at: platform.clock.now(),
      },
      context(endpointId),
    );
  }
  const background = await startBackground(platform, webhooksFeature.background!(platform));
  const queue = (i: number) => {
    const articleId = platform.ids.next('art');
    return {
      articleId,
      append: () =>
        platform.commands.execute(
          articleStream,
          articleId,
          {
            type: 'QueueArticle',
            articleId,
            topicId: 'tpc_bench',
            projectId: 'prj_bench',
            title: `Bench ${i}`,
            keyword: null,
            brief: null,
            trigger: 'api',
            at: platform.clock.now(),
          },
          context(articleId),
        ),
    };
  };
  for (let i = 0; i < WARMUP_EVENTS; i++) await queue(-i).append();
  while (
    Number(await ask('count')) <
    WARMUP_EVENTS * urls.filter((url) => !url.includes(`:${ports.dead}/`)).length
  )
    await new Promise((resolve) => setTimeout(resolve, 20));
  await ask('dump');

  const appendedAt = new Map<string, number>();
  const now = () => performance.timeOrigin + performance.now();
  const started = now();
  const cpu = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  for (let i = 0; i < EVENTS; i++) {
    if (options.pacedPerSecond) {
      const due = started + (i * 1000) / options.pacedPerSecond;
      const wait = due - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const { articleId, append } = queue(i);
    appendedAt.set(articleId, now());
    await append();
  }
  const expected = EVENTS * ENDPOINTS;
  while (Number(await ask('count')) < expected)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const receipts = JSON.parse(await ask('dump')) as Array<[string, number, number]>;
  const { user, system } = process.cpuUsage(cpu);
  loopDelay.disable();
  await background.stop();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });

  const latencies = receipts
    .map(([articleId, , at]) => at - appendedAt.get(articleId)!)
    .sort((a, b) => a - b);
  const last = Math.max(...receipts.map(([, , at]) => at));
  const seconds = (last - started) / 1000;
  return {
    deliveries: receipts.length,
    seconds: round2(seconds),
    deliveriesPerSecond: Math.round(receipts.length / seconds),
    senderCpuMicrosPerDelivery: Math.round((user + system) / receipts.length),
    eventLoopDelayMs: {
      p99: round2(loopDelay.percentile(99) / 1e6),
      max: round2(loopDelay.max / 1e6),
    },
    latencyMs: {
      p50: round2(percentile(latencies, 50)),
      p90: round2(percentile(latencies, 90)),
      p99: round2(percentile(latencies, 99)),
      max: round2(latencies[latencies.length - 1]),
    },
  };
}

/** Bare signed-size POSTs, no store, no signing: the ceiling this machine and these receivers allow. */
async function httpBaseline(): Promise<{
  requestsPerSecond: number;
  senderCpuMicrosPerRequest: number;
}> {
  const clients = ports.live.map(() =>
    createSafeHttpClient({
      allowPrivateAddresses: true,
      connectionsPerOrigin: CONCURRENCY_PER_ENDPOINT,
      maxRedirects: 0,
    }),
  );
  const body = JSON.stringify({
    id: 'evt_baseline',
    type: 'article.status_changed',
    createdAt: new Date().toISOString(),
    data: { id: 'art_baseline', pad: 'x'.repeat(700) },
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    ports.live.map(async (port, i) => {
      let sent = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY_PER_ENDPOINT }, async () => {
          while (sent++ < EVENTS) {
            await clients[i].request(`https://127.0.0.1:${port}/hook`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
              maxBytes: 2048,
              onTooLarge: 'truncate',
            });
          }
        }),
      );
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  await Promise.all(clients.map((client) => client.close()));
  await ask('dump');
  return {
    requestsPerSecond: Math.round((EVENTS * ENDPOINTS) / seconds),
    senderCpuMicrosPerRequest: Math.round((user + system) / (EVENTS * ENDPOINTS)),
  };
}

const median = <T>(runs: T[], key: (run: T) => number): T =>
  [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)];
const burst: Run[] = [];
const paced: Run[] = [];
const pacedAtTarget: Run[] = [];
const pacedWithDead: Run[] = [];
const baseline: Awaited<ReturnType<typeof httpBaseline>>[] = [];
for (let r = 0; r < ROUNDS; r++) {
  baseline.push(await httpBaseline());
  burst.push(await run({ pacedPerSecond: null, deadEndpoint: false }));
  paced.push(await run({ pacedPerSecond: PACED_EVENTS_PER_SECOND, deadEndpoint: false }));
  pacedAtTarget.push(await run({ pacedPerSecond: TARGET_EVENTS_PER_SECOND, deadEndpoint: false }));
  pacedWithDead.push(await run({ pacedPerSecond: PACED_EVENTS_PER_SECOND, deadEndpoint: true }));
}
child.kill();

const best = {
  httpBaseline: median(baseline, (r) => r.requestsPerSecond),
  burst: median(burst, (r) => r.deliveriesPerSecond),
  paced: median(paced, (r) => r.latencyMs.p99),
  pacedAtTarget: median(pacedAtTarget, (r) => r.latencyMs.p99),
  pacedWithDead: median(pacedWithDead, (r) => r.latencyMs.p99),
};
const deadRatio = best.pacedWithDead.latencyMs.p99 / best.paced.latencyMs.p99;
const result = {
  benchmark: 'webhooks.fanout',
  at: new Date().toISOString(),
  machine: {
    loadAverage1m: loadavg()[0],
    cpus: availableParallelism(),
    model: cpus()[0]?.model ?? 'unknown',
    node: process.version,
  },
  setup: {
    events: EVENTS,
    warmupEvents: WARMUP_EVENTS,
    endpoints: ENDPOINTS,
    pacedEventsPerSecond: [PACED_EVENTS_PER_SECOND, TARGET_EVENTS_PER_SECOND],
    rounds: ROUNDS,
    store: 'embedded SQLite',
    receivers: 'HTTPS, separate process, 204 at once',
  },
  medians: best,
  burstToBaseline: round2(
    median(burst, (r) => r.deliveriesPerSecond).deliveriesPerSecond /
      median(baseline, (r) => r.requestsPerSecond).requestsPerSecond,
  ),
  rounds: { httpBaseline: baseline, burst, paced, pacedAtTarget, pacedWithDead },
  targets: {
    deliveriesPerSecond: {
      target: 2_000,
      value: best.burst.deliveriesPerSecond,
      met: best.burst.deliveriesPerSecond >= 2_000,
    },
    p99AppendToReceiptMs: {
      target: 250,
      at: `${PACED_EVENTS_PER_SECOND} events/s`,
      value: best.paced.latencyMs.p99,
      met: best.paced.latencyMs.p99 <= 250,
    },
    p99AppendToReceiptAtTargetRateMs: {
      target: 250,
      at: `${TARGET_EVENTS_PER_SECOND} events/s`,
      value: best.pacedAtTarget.latencyMs.p99,
      met: best.pacedAtTarget.latencyMs.p99 <= 250,
    },
    p99WithDeadEndpointWithin20Percent: { ratio: round2(deadRatio), met: deadRatio <= 1.2 },
  },
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/webhooks.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(`load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs`);
console.log(
  `bare HTTPS POSTs, same client and receivers: ${best.httpBaseline.requestsPerSecond.toLocaleString()} requests/s (${best.httpBaseline.senderCpuMicrosPerRequest} µs CPU each)`,
);
console.log(
  `burst, ${EVENTS} events × ${ENDPOINTS} endpoints: ${best.burst.deliveriesPerSecond.toLocaleString()} deliveries/s (${result.burstToBaseline}× bare POSTs; ${best.burst.senderCpuMicrosPerDelivery} µs CPU each; p99 ${best.burst.latencyMs.p99} ms while queued)`,
);
console.log(
  `paced ${PACED_EVENTS_PER_SECOND} events/s: ${best.paced.deliveriesPerSecond.toLocaleString()} deliveries/s, append → receipt p50 ${best.paced.latencyMs.p50} ms, p99 ${best.paced.latencyMs.p99} ms`,
);
console.log(
  `paced ${TARGET_EVENTS_PER_SECOND} events/s: ${best.pacedAtTarget.deliveriesPerSecond.toLocaleString()} deliveries/s, append → receipt p50 ${best.pacedAtTarget.latencyMs.p50} ms, p99 ${best.pacedAtTarget.latencyMs.p99} ms`,
);
console.log(
  `paced ${PACED_EVENTS_PER_SECOND} events/s plus a dead endpoint: p99 ${best.pacedWithDead.latencyMs.p99} ms (${round2(deadRatio)}× without it)`,
);
console.log(
  `targets: ≥ 2,000 deliveries/s ${result.targets.deliveriesPerSecond.met ? 'met' : 'NOT met'}; p99 ≤ 250 ms at ${PACED_EVENTS_PER_SECOND}/s ${result.targets.p99AppendToReceiptMs.met ? 'met' : 'NOT met'}, at ${TARGET_EVENTS_PER_SECOND}/s ${result.targets.p99AppendToReceiptAtTargetRateMs.met ? 'met' : 'NOT met'}; dead endpoint within 20% ${result.targets.p99WithDeadEndpointWithin20Percent.met ? 'met' : 'NOT met'}`,
);
process.exit(0);
