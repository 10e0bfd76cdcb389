/**
 * Stalled unauthenticated uploads against a real server process (issue 13, "Done when"): the
 * server (src/main.ts, default configuration, embedded store) runs in a child process, its
 * resident memory (VmRSS in /proc/<pid>/status) is read idle as the baseline, then CONNECTIONS
 * clients, each from its own loopback source address across 127.0.0.0/8 (so the per-address
 * connection cap cannot be what protects the server), send the headers of a 1 MB JSON POST
 * without a valid key and most of its body, then stall. The server's memory is sampled during
 * the attack and after it; the target is that it moves by at most 20 MB. Bounded: every client
 * is destroyed after ATTACK_SECONDS at the latest.
 * Run: npx node bench/stalledUploads.bench.ts   (BENCH_CONNECTIONS: 500, BENCH_ATTACK_SECONDS: 20,
 * BENCH_SERVER_MAIN: another main.ts to measure, e.g. an older checkout's)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { cpuTimes, stealPercent } from './load/hostSteal.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 500);
const ATTACK_SECONDS = Number(process.env.BENCH_ATTACK_SECONDS ?? 20);
const SERVER_MAIN =
  process.env.BENCH_SERVER_MAIN ?? new URL('../src/main.ts', import.meta.url).pathname;
const DECLARED_BYTES = 1024 * 1024;
const SENT_BYTES = Number(process.env.BENCH_SENT_BYTES ?? 1_000_000); // most of the declared megabyte, then the client stalls
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
const TARGET_MB = 20;

const dataDir = mkdtempSync(join(tmpdir(), 'ink-stalled-'));
const server = spawn(process.execPath, [SERVER_MAIN], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const found = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1];
    if (found) resolve(found);
  });
  server.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
});
server.stdout!.resume();
const { port } = new URL(url);

const rssMb = (): number => {
  const kb = Number(
    /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1],
  );
  return Math.round((kb / 1024) * 10) / 10;
};

/** The i-th client's own loopback address: 127.1.0.1, 127.1.0.2, … (never the server's 127.0.0.1). */
const sourceAddress = (i: number) => `127.1.${Math.floor(i / 250)}.${(i % 250) + 1}`;

/** CONNECTIONS ordinary bodiless requests at once, one per source address, each answered and closed. */
const ordinaryBurst = () =>
  Promise.all(
    Array.from(
      { length: CONNECTIONS },
      (_, i) =>
        new Promise<void>((resolve) => {
          const socket = connect({
            host: '127.0.0.1',
            port: Number(port),
            localAddress: sourceAddress(i),
          });
          socket.once('connect', () =>
            socket.write(
              'GET /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
            ),
          );
          socket
            .on('error', () => {})
            .once('close', () => resolve())
            .resume();
        }),
    ),
  );

// Two idle baselines. Cold: the server just started (plus a few requests). Warm: idle again after
// serving as many ordinary requests at once as the attack opens connections: V8 sizes its young
// generation up for that many live connections whatever they carry (docs/http.md), so the rise
// over the warm baseline is what the stalled bodies themselves cost.
for (let i = 0; i < 50; i++)
  await fetch(`${url}/api/v1/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
await delay(1000);
const coldBaselineMb = rssMb();
await ordinaryBurst();
await delay(1000);
const baselineMb = rssMb();

type Client = {
  socket: Socket;
  sent: number;
  status: number | null;
  connectedMs: number | null;
  answeredMs: number | null;
  closedMs: number | null;
};
const started = performance.now();
const machineBefore = cpuTimes();

function stalledUpload(i: number): Client {
  const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress: sourceAddress(i) });
  const client: Client = {
    socket,
    sent: 0,
    status: null,
    connectedMs: null,
    answeredMs: null,
    closedMs: null,
  };
  const writeBody = () => {
    // Only as fast as the server takes it: the bench must not hold the megabytes itself.
    while (client.sent < SENT_BYTES && !socket.destroyed) {
      const piece = CHUNK.subarray(0, Math.min(CHUNK.length, SENT_BYTES - client.sent));
      client.sent += piece.length;
      if (!socket.write(piece)) {
        socket.once('drain', writeBody);
        return;
      }
    }
  };
  socket.once('connect', () => {
    client.connectedMs = performance.now() - started;
    socket.write(
      `POST /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${DECLARED_BYTES}\r\n\r\n`,
    );
    writeBody();
  });
  socket.once('data', (chunk: Buffer) => {
    client.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0);
    client.answeredMs = performance.now() - started;
  });
  socket.on('error', () => {});
  socket.once('close', () => {
    client.closedMs = performance.now() - started;
  });
  return client;
}

const clients = Array.from({ length: CONNECTIONS }, (_, i) => stalledUpload(i));
const samples: { atMs: number; rssMb: number; open: number }[] = [];
const deadline = started + ATTACK_SECONDS * 1000;
while (performance.now() < deadline) {
  const open = clients.filter((client) => client.closedMs === null).length;
  samples.push({ atMs: Math.round(performance.now() - started), rssMb: rssMb(), open });
  if (open === 0) break;
  await delay(100);
}
const stillOpen = clients.filter((client) => client.closedMs === null).length;
for (const client of clients) client.socket.destroy();
const hostStealPercent = stealPercent(machineBefore, cpuTimes());

// After: the attack is over; give the collector a moment, then read the memory again.
await delay(2000);
const afterMb = rssMb();
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
rmSync(dataDir, { recursive: true, force: true });

const peakMb = Math.max(...samples.map((sample) => sample.rssMb));
const statuses: Record<string, number> = {};
for (const client of clients)
  statuses[String(client.status ?? 'none')] = (statuses[String(client.status ?? 'none')] ?? 0) + 1;
const percentile = (values: number[], p: number) =>
  values.length === 0
    ? null
    : Math.round(
        [...values].sort((a, b) => a - b)[
          Math.min(values.length - 1, Math.floor(values.length * p))
        ],
      );
const answered = clients.flatMap((client) =>
  client.answeredMs === null ? [] : [client.answeredMs],
);
const connected = clients.flatMap((client) =>
  client.connectedMs === null ? [] : [client.connectedMs],
);
const results = {
  bench: 'stalledUploads',
  at: new Date().toISOString(),
  server: process.env.BENCH_SERVER_MAIN ? 'BENCH_SERVER_MAIN' : 'src/main.ts',
  connections: CONNECTIONS,
  sourceAddresses: new Set(clients.map((_, i) => sourceAddress(i))).size,
  declaredBytes: DECLARED_BYTES,
  bytesEachClientMeantToSend: SENT_BYTES,
  memoryMb: {
    coldBaseline: coldBaselineMb,
    baseline: baselineMb,
    peakDuring: peakMb,
    after: afterMb,
    peakRise: Math.round((peakMb - baselineMb) * 10) / 10,
    afterRise: Math.round((afterMb - baselineMb) * 10) / 10,
    peakRiseOverCold: Math.round((peakMb - coldBaselineMb) * 10) / 10,
  },
  targetMaxRiseMb: TARGET_MB,
  met: peakMb - baselineMb <= TARGET_MB && afterMb - baselineMb <= TARGET_MB,
  statuses,
  stillOpenAtDeadline: stillOpen,
  connectedMs: { p50: percentile(connected, 0.5), max: percentile(connected, 1) },
  answerMs: {
    p50: percentile(answered, 0.5),
    p99: percentile(answered, 0.99),
    max: percentile(answered, 1),
  },
  bodyBytesClientsGotToSendMb: Math.round(
    clients.reduce((total, client) => total + client.sent, 0) / 1024 / 1024,
  ),
  hostStealPercent,
  loadAverage: loadavg(),
  samples,
};
console.log(
  `stalled uploads: ${CONNECTIONS} connections from ${results.sourceAddresses} loopback addresses, no key, ${SENT_BYTES} of ${DECLARED_BYTES} bytes each, then a stall`,
);
console.log(
  `  connected p50 ${results.connectedMs.p50} ms, max ${results.connectedMs.max} ms (from the first connect)`,
);
console.log(
  `  answers: ${JSON.stringify(statuses)}; answered p50 ${results.answerMs.p50} ms, max ${results.answerMs.max} ms; still open at ${ATTACK_SECONDS} s: ${stillOpen}`,
);
console.log(
  `  server memory idle: ${coldBaselineMb} MB cold, ${baselineMb} MB after ${CONNECTIONS} ordinary requests at once (the baseline)`,
);
console.log(
  `  server memory: baseline ${baselineMb} MB, peak during ${peakMb} MB (+${results.memoryMb.peakRise}), after ${afterMb} MB (+${results.memoryMb.afterRise}); target: at most +${TARGET_MB} MB: ${results.met ? 'met' : 'NOT met'}`,
);
console.log(
  `  host steal during the attack: ${hostStealPercent ?? 'n/a'}%; load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`,
);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
if (!process.env.BENCH_SERVER_MAIN)
  writeFileSync(
    new URL('./results/stalledUploads.json', import.meta.url),
    `${JSON.stringify(results, null, 2)}\n`,
  );
