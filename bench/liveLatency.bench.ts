/**
 * The live stream's latency: from a command's append (the event store's append listener) to the
 * change arriving on an open GET /api/v1/live stream over real HTTP, beside the same run's time
 * from the append to the read models showing it (what a GET after it waits for). Commands are
 * `POST /projects/:id/topics`, sent one at a time, paced so each is measured on its own.
 * Figures: p50 / p99 of each, and the ratio stream ÷ read models.
 * Run: npx node bench/liveLatency.bench.ts [COMMANDS]   → bench/results/liveLatency.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { startInkstream } from '../test/support/inkstream.ts';
import { openSse } from '../test/support/sseClient.ts';

const commands = Number(process.argv[2] ?? 300);
const WARMUP = 30;
const PACE_MS = 10;

const app = await startInkstream({ env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '1000000' } });
const projectId: string = (
  await app.api().post('/projects', { name: 'Bench', websiteUrl: 'http://127.0.0.1:9/' })
).body.project.id;

const appendedAt = new Map<string, number>();
const readModelsAt = new Map<string, number>();
const arrivedAt = new Map<string, number>();
const stopListening = app.platform.eventStore.onAppend((position) => {
  appendedAt.set(position.toString(), performance.now());
  // Asked at the append, so it settles the moment the read models reach it.
  void app.platform.readModels
    .catchUp(10_000, position)
    .then(() => readModelsAt.set(position.toString(), performance.now()));
});
const stream = await openSse(
  `${app.url}/api/v1/live`,
  { authorization: `Bearer ${app.key}` },
  (event) => {
    if (event.id && event.event === 'message') arrivedAt.set(event.id, performance.now());
  },
);

const streamMs: number[] = [];
const readModelMs: number[] = [];
for (let i = 0; i < WARMUP + commands; i++) {
  const created = await app
    .api()
    .post(`/projects/${projectId}/topics`, { title: `Bench topic ${i}` });
  if (created.status !== 201) throw new Error(`POST answered ${created.status}`);
  const topicId: string = created.body.topic.id;
  let id: string | undefined;
  while (
    !(id = stream.changes().findLast((change) => change.topicId === topicId)?.id) ||
    !readModelsAt.has(id)
  )
    await wait(1);
  if (i >= WARMUP) {
    streamMs.push(arrivedAt.get(id)! - appendedAt.get(id)!);
    readModelMs.push(readModelsAt.get(id)! - appendedAt.get(id)!);
  }
  await wait(PACE_MS);
}
stopListening();
stream.close();
await app.close();

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    Math.round(
      sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 100,
    ) / 100
  );
};
const result = {
  date: new Date().toISOString(),
  commands,
  cpus: cpus().length,
  loadAverage: loadavg()[0],
  streamMs: { p50: percentile(streamMs, 50), p99: percentile(streamMs, 99) },
  readModelsMs: { p50: percentile(readModelMs, 50), p99: percentile(readModelMs, 99) },
  ratio: {
    p50: Math.round((percentile(streamMs, 50) / percentile(readModelMs, 50)) * 100) / 100,
    p99: Math.round((percentile(streamMs, 99) / percentile(readModelMs, 99)) * 100) / 100,
  },
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'liveLatency.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
