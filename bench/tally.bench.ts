/**
 * The board totals' cost as a project grows (issue 15: POST topics at 1,000,000 events ran at
 * 0.34× the near-empty store's rate, the tally recounting the project after every batch):
 * - the projection consumer's cost per batch (`applyProjections`, every read model, as the live
 *   consumer runs it) for a batch that adds a topic to a project holding 1,000 topics and to one
 *   holding 200,000, measured in alternating rounds on two stores, as a ratio (flat is ~1×); beside
 *   it, what a recount of that project per status (the old way, and MongoDB's) costs on each store;
 * - POST topics per second (4 at a time), and this process's CPU time per POST (server and client
 *   share it), on a server whose target project holds 100,000 topics against one whose holds 100,
 *   in alternating rounds.
 * Run: npx node bench/tally.bench.ts [BIG_PROJECT_TOPICS] [POST_BIG_PROJECT_TOPICS]
 *   (defaults 200000 and 100000; smaller numbers check that the bench works)  → bench/results/tally.json
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { projectTopicCounts } from '../projections/projectTopicCounts.ts';
import { allProjections } from '../src/app/features.ts';
import { startServer, type RunningServer } from '../src/app/start.ts';
import { EMBEDDED_DB_FILE } from '../src/app/stores.ts';
import { loadConfig } from '../src/core/config.ts';
import { positionToText } from '../src/core/positions.ts';
import { applyProjections } from '../src/consumers/projectionConsumer.ts';
import { createInMemoryEventStore } from '../src/eventstore/inMemory.ts';
import { topicStream } from '../src/domain/topics/decide.ts';
import type { StoredEvent } from '../src/eventstore/port.ts';
import { handleCommand } from '../src/eventstore/handleCommand.ts';
import { createApiKey } from '../src/features/accounts/keys.ts';
import { openSqliteReadStore } from '../src/readstore/sqlite.ts';
import { recount } from '../src/readstore/tally.ts';

// The batches are made here, not read from a log: no online rebuild swaps anything for them to catch up on.
const noSwaps = createInMemoryEventStore();

const BIG = Number(process.argv[2] ?? 200_000);
const POST_BIG = Number(process.argv[3] ?? 100_000);
const SMALL = 1_000;
const POST_SMALL = 100;
const ROUNDS = 5;
const BATCHES_PER_ROUND = 60;
const POSTS_PER_ROUND = 200;
const dir = mkdtempSync(join(tmpdir(), 'ink-bench-tally-'));
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)];
const PROJECT = `prj_${'1'.padStart(26, '0')}`;
const metadata = {
  accountId: 'acc_bench',
  actor: { kind: 'system' as const, worker: 'bench' },
  correlationId: 'c',
  causationId: 'c',
  requestId: 'r',
};

/** Per batch, in ms: the live consumer's apply of one POST's batch; and the recount the old way paid for it. */
async function projectionCostPerBatch() {
  const stores = await Promise.all(
    [SMALL, BIG].map(async (size) => ({
      size,
      ...(await seeded(size)),
      times: [] as number[],
      recounts: [] as number[],
    })),
  );
  for (let r = 0; r < ROUNDS; r++) {
    for (const store of stores) {
      for (let i = 0; i < BATCHES_PER_ROUND; i++) {
        const batch = store.postBatch(i % 2 === 1);
        const started = performance.now();
        await applyProjections(allProjections, store.reads, batch, 'projections', noSwaps);
        store.times.push(performance.now() - started);
      }
      const tally = { collection: projectTopicCounts.collection, ...projectTopicCounts.tally! };
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await recount(store.reads, tally, 'topics', new Map([[PROJECT, 1n]]));
        store.recounts.push(performance.now() - started);
      }
    }
  }
  for (const { reads } of stores) await reads.close();
  return stores.map(({ size, times, recounts }) => ({
    topics: size,
    batches: times.length,
    medianMs: round(median(times), 3),
    p90Ms: round(p90(times), 3),
    recountMedianMs: round(median(recounts), 2),
  }));
}

/** A store as above, with a way to make one POST's batch: a new topic, and, when asked, another topic rejected. */
async function seeded(topics: number) {
  const reads = openSqliteReadStore(join(dir, `reads-${topics}.sqlite`));
  await reads.ensureCollections(
    allProjections.map((p) => ({ name: p.collection, indexes: p.indexes })),
  );
  let position = 0n;
  let made = 0;
  let rejected = 0;
  const at = '2026-11-25T00:00:00.000Z';
  const event = (
    type: string,
    topicId: string,
    data: Record<string, unknown>,
    revision: bigint,
  ): StoredEvent => ({
    id: crypto.randomUUID(),
    type,
    stream: `topic-${topicId}`,
    revision,
    position: ++position,
    createdAt: at,
    metadata,
    data: { topicId, ...data, at },
  });
  const created = () => {
    const topicId = `tpc_${String(made++).padStart(26, '0')}`;
    return event(
      'TopicCreated',
      topicId,
      {
        projectId: PROJECT,
        title: `Topic ${made}`,
        keyword: null,
        brief: null,
        status: 'approved',
        scheduledFor: null,
        priority: 50,
        source: 'api',
        runId: null,
        rationale: null,
      },
      0n,
    );
  };
  // Seeded a thousand topics a batch, one in ten of them rejected afterwards.
  const rejectOne = () =>
    event('TopicRejected', `tpc_${String(10 * rejected++).padStart(26, '0')}`, {}, 1n);
  while (made < topics) {
    const batch = Array.from({ length: Math.min(1_000, topics - made) }, created);
    while (10 * rejected < made) batch.push(rejectOne());
    await applyProjections(allProjections, reads, batch, 'projections', noSwaps);
  }
  return {
    reads,
    postBatch: (alsoReject: boolean) => [
      created(),
      ...(alsoReject && 10 * rejected < made ? [rejectOne()] : []),
    ],
  };
}

type Server = { running: RunningServer; key: string; projectId: string };

/** A server on a fresh store whose target project holds `topics` topics (appended to the log and projected before it is measured). */
async function serverWithProject(topics: number): Promise<Server> {
  const dataDir = join(dir, `server-${topics}`);
  mkdirSync(dataDir);
  const running = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      INKSTREAM_RATE_LIMIT_PER_MINUTE: '1000000000',
      INKSTREAM_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
    }),
    pino({ level: 'silent' }),
    { announce: () => {} },
  );
  const { key, accountId } = await createApiKey(running.platform, { account: 'bench' });
  const created = await fetch(`${running.url}/api/v1/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Grown', websiteUrl: 'https://example.invalid' }),
  });
  const projectId = ((await created.json()) as { project: { id: string } }).project.id;
  const at = new Date().toISOString();
  for (let made = 0; made < topics; made += 500) {
    // Concurrent appends share a commit (the embedded store's group commit).
    await Promise.all(
      Array.from({ length: Math.min(500, topics - made) }, (_, i) => {
        const topicId = `tpc_${String(made + i).padStart(26, '0')}`;
        return handleCommand(
          running.platform.eventStore,
          topicStream,
          topicId,
          {
            type: 'CreateTopic',
            topic: {
              topicId,
              projectId,
              title: `Seeded ${made + i}`,
              keyword: null,
              brief: null,
              status: 'approved',
              scheduledFor: null,
              priority: 50,
              source: 'api',
              runId: null,
              rationale: null,
              at,
            },
          },
          {
            accountId,
            actor: { kind: 'system', worker: 'bench' },
            correlationId: 'seed',
            requestId: 'seed',
            commandId: `seed:${made + i}`,
          },
        );
      }),
    );
  }
  await settled(join(dataDir, EMBEDDED_DB_FILE), await running.platform.eventStore.headPosition());
  return { running, key, projectId };
}

/** Waits until the projections have reached the head and no consumer's checkpoint has moved for a second (the seeded events handled). */
async function settled(file: string, head: bigint): Promise<void> {
  const db = new DatabaseSync(file, { readOnly: true });
  const snapshot = () =>
    JSON.stringify(
      db.prepare('SELECT consumer, position FROM checkpoints ORDER BY consumer').all(),
    );
  const projected = () =>
    db.prepare(`SELECT position FROM checkpoints WHERE consumer = 'projections'`).get()?.position as
      | string
      | undefined;
  for (let last = '', stableSince = performance.now(); ; await sleep(250)) {
    const now = snapshot();
    if (now !== last) [last, stableSince] = [now, performance.now()];
    if ((projected() ?? '') >= positionToText(head) && performance.now() - stableSince > 1_000)
      break;
  }
  db.close();
}

/** POSTs per second (4 at a time) and this process's CPU time per POST. */
async function postTopics(
  { running, key, projectId }: Server,
  roundNumber: number,
): Promise<{ perSecond: number; cpuUs: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    while (next < POSTS_PER_ROUND) {
      const n = next++;
      const response = await fetch(`${running.url}/api/v1/projects/${projectId}/topics`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Posted ${roundNumber}.${n}` }),
      });
      if (response.status !== 201)
        throw new Error(`POST topics: ${response.status} ${await response.text()}`);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  return { perSecond: POSTS_PER_ROUND / seconds, cpuUs: (user + system) / POSTS_PER_ROUND };
}

async function postRates() {
  const servers = [
    { topics: POST_SMALL, server: await serverWithProject(POST_SMALL) },
    { topics: POST_BIG, server: await serverWithProject(POST_BIG) },
  ];
  const measured = servers.map(() => ({ perSecond: [] as number[], cpuUs: [] as number[] }));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, { server }] of servers.entries()) {
      const { perSecond, cpuUs } = await postTopics(server, r);
      measured[i].perSecond.push(perSecond);
      measured[i].cpuUs.push(cpuUs);
    }
  }
  for (const { server } of servers) await server.running.stop();
  return servers.map(({ topics }, i) => ({
    topics,
    rounds: ROUNDS,
    postsPerRound: POSTS_PER_ROUND,
    medianPerSecond: round(median(measured[i].perSecond), 0),
    medianCpuUsPerPost: round(median(measured[i].cpuUs), 0),
  }));
}

const loadAtStart = loadavg()[0];
const perBatch = await projectionCostPerBatch();
const posts = await postRates();
const loadAtEnd = loadavg()[0];
const results = {
  at: new Date().toISOString(),
  machine: {
    cores: cpus().length,
    node: process.version,
    loadAverage1m: { start: loadAtStart, end: loadAtEnd },
  },
  projectionPerBatch: {
    small: perBatch[0],
    big: perBatch[1],
    ratio: round(perBatch[1].medianMs / perBatch[0].medianMs),
  },
  postTopics: {
    small: posts[0],
    big: posts[1],
    rateRatio: round(posts[1].medianPerSecond / posts[0].medianPerSecond),
    cpuRatio: round(posts[1].medianCpuUsPerPost / posts[0].medianCpuUsPerPost),
  },
};
console.log(
  `projection per batch (one POST's events, every read model): ${perBatch[0].topics} topics ${perBatch[0].medianMs} ms (p90 ${perBatch[0].p90Ms}), ` +
    `${perBatch[1].topics} topics ${perBatch[1].medianMs} ms (p90 ${perBatch[1].p90Ms}): ${results.projectionPerBatch.ratio}× (flat is ~1×)`,
);
console.log(
  `  a recount of the project per status, as before (and on MongoDB): ${perBatch[0].recountMedianMs} ms and ${perBatch[1].recountMedianMs} ms`,
);
console.log(
  `POST topics: target project with ${posts[0].topics} topics ${posts[0].medianPerSecond}/s (${posts[0].medianCpuUsPerPost} µs CPU per POST), ` +
    `with ${posts[1].topics} topics ${posts[1].medianPerSecond}/s (${posts[1].medianCpuUsPerPost} µs): rate ${results.postTopics.rateRatio}×, CPU ${results.postTopics.cpuRatio}× (goal: rate ≥ 0.8×)`,
);
console.log(
  `load average: ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end (a shared 2-core host: the figures are noisy)`,
);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'tally.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);
