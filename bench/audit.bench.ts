/**
 * Auditor figures on the embedded default:
 * - GET /api/v1/articles/:id/history for an article with 1,000 events, over real HTTP (target ≤ 50 ms);
 * - `events export` throughput in events/s (target ≥ 100,000), against a raw node:sqlite full-table read.
 * Run: npx node bench/audit.bench.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { accountIdForName } from '../src/domain/accounts/account.ts';
import { exportLog } from '../src/features/audit/exportLog.ts';
import { startInkstream } from '../test/support/inkstream.ts';
import { stopPipeline } from '../test/support/stopPipeline.ts';

const app = await startInkstream({ env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '1000000' } });
const api = app.api();
await stopPipeline(app); // the article's 1,000 events are written below, not by the pipeline
const project = (
  await api.post('/projects', { name: 'Bench', websiteUrl: 'https://bench.example' })
).body.project;
const topic = (await api.post(`/projects/${project.id}/topics`, { title: 'A long life' })).body
  .topic;
const article = (await api.post(`/topics/${topic.id}/write`)).body.article;

// 999 more events on the article's stream: revision requests, as a busy editor over a long life would make.
const accountId = accountIdForName('test');
const metadata = {
  accountId,
  actor: { kind: 'system' as const, worker: 'bench' },
  correlationId: 'b',
  causationId: 'b',
  requestId: 'b',
};
const articleEvents = Array.from({ length: 999 }, (_, i) => ({
  id: crypto.randomUUID(),
  type: 'ArticleRevisionRequested',
  data: {
    articleId: article.id,
    revisionId: `rev_${i}`,
    instruction: `edit ${i}`,
    source: { kind: 'api' },
    at: new Date().toISOString(),
  },
  metadata,
}));
await app.platform.eventStore.append(`article-${article.id}`, articleEvents, 0n);
// Padding the log so export has something to chew on: 200,000 events over 2,000 streams.
const store = app.platform.eventStore;
for (let i = 0; i < 200_000; i += 100) {
  const events = Array.from({ length: 100 }, (_, k) => ({
    id: crypto.randomUUID(),
    type: 'BenchEvent',
    data: { n: i + k, text: 'lorem ipsum dolor sit amet' },
    metadata,
  }));
  await store.append(`bench-${i}`, events, 'no_stream');
}

// The padding above blocked the event loop for a while: let idle keep-alive sockets expire first.
await api.get('/projects').catch(() => undefined);
const history = await api.get(`/articles/${article.id}/history?limit=1000`);
if (history.body.history.length < 1000)
  throw new Error(`expected ≥1000 history entries, got ${history.body.history.length}`);
const timings: number[] = [];
for (let i = 0; i < 30; i++) {
  const started = performance.now();
  await api.get(`/articles/${article.id}/history?limit=1000`);
  timings.push(performance.now() - started);
}
timings.sort((a, b) => a - b);

const sink = new Writable({
  write(_chunk, _encoding, done) {
    done();
  },
});
const exportStarted = performance.now();
const exported = await exportLog(store, sink);
const exportRate = exported.events / ((performance.now() - exportStarted) / 1000);

const raw = new DatabaseSync(join(app.dataDir, 'inkstream.sqlite'), { readOnly: true });
const rawStarted = performance.now();
let rawRows = 0;
for (const _row of raw.prepare('SELECT * FROM events').iterate()) rawRows++;
const rawRate = rawRows / ((performance.now() - rawStarted) / 1000);

const results = {
  historyOf1000Events: { medianMs: timings[15], p95Ms: timings[28], targetMs: 50 },
  export: {
    events: exported.events,
    eventsPerSecond: Math.round(exportRate),
    targetEventsPerSecond: 100_000,
    rawSqliteRowsPerSecond: Math.round(rawRate),
    ratioToRaw: exportRate / rawRate,
  },
};
console.log(
  `history of an article with ${history.body.history.length} events over HTTP: median ${timings[15].toFixed(1)} ms, p95 ${timings[28].toFixed(1)} ms (target ≤ 50 ms)`,
);
console.log(
  `export: ${Math.round(exportRate)} events/s of ${exported.events} (raw node:sqlite row scan ${Math.round(rawRate)} rows/s; ratio ${(exportRate / rawRate).toFixed(2)}; target ≥ 100,000)`,
);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'audit.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);
await app.close();
