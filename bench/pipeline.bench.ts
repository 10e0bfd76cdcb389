/**
 * The content pipeline with the offline writer, in process, over real HTTP against a local site:
 * - time from POST /topics/:id/write to the ArticleDrafted event, one article at a time (the
 *   latency a user sees) and 20 at once (the process managers' concurrency at work);
 * - model calls per article, counted through the writer (research + write, and one per revision).
 * Run: npx node bench/pipeline.bench.ts  → bench/results/pipeline.json
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/core/config.ts';
import { startBenchServer } from './load/benchServer.ts';
import { recordingWriter } from '../test/support/pipelineHarness.ts';
import { startTestSite } from '../test/support/testSite.ts';

const ARTICLES = 20;
const site = await startTestSite();
const dataDir = mkdtempSync(join(tmpdir(), 'inkstream-bench-pipeline-'));
const writer = recordingWriter();
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  INKSTREAM_ALLOW_PRIVATE_URLS: '1',
  INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000',
});
const { server, api } = await startBenchServer(config, { pipeline: { writer } });

/** Draft times by article id, from the log's own append notification: no polling delay is measured. */
const draftedAt = new Map<string, number>();
const waiting = new Map<string, (at: number) => void>();
let seen = await server.platform.eventStore.headPosition();
let reading = false;
server.platform.eventStore.onAppend(async () => {
  if (reading) return;
  reading = true;
  try {
    for (
      let events = await server.platform.eventStore.readAll({
        after: seen,
        categories: ['article'],
      });
      events.length > 0;
      events = await server.platform.eventStore.readAll({ after: seen, categories: ['article'] })
    ) {
      const now = performance.now();
      for (const event of events) {
        if (event.type !== 'ArticleDrafted') continue;
        const id = String(event.data.articleId);
        draftedAt.set(id, now);
        waiting.get(id)?.(now);
      }
      seen = events[events.length - 1].position;
    }
  } finally {
    reading = false;
  }
});
const drafted = (articleId: string) =>
  new Promise<number>((resolve) => {
    const at = draftedAt.get(articleId);
    if (at !== undefined) resolve(at);
    else waiting.set(articleId, resolve);
  });

async function writeOne(topicId: string): Promise<{ articleId: string; ms: number }> {
  const start = performance.now();
  const articleId = (await api('POST', `/topics/${topicId}/write`)).article.id as string;
  return { articleId, ms: (await drafted(articleId)) - start };
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] * 10) / 10;
  return { n: sorted.length, medianMs: at(0.5), p95Ms: at(0.95), maxMs: at(1) };
};

const projectId = (await api('POST', '/projects', { name: 'Crumb', websiteUrl: site.origin }))
  .project.id as string;
while ((await api('GET', `/projects/${projectId}`)).project.crawl.status === 'pending')
  await new Promise((resolve) => setTimeout(resolve, 20));
const topics: string[] = [];
for (let i = 0; i < ARTICLES * 2 + 1; i++) {
  topics.push(
    (
      await api('POST', `/projects/${projectId}/topics`, {
        title: `Bench article ${i}: pricing sourdough`,
        keyword: 'sourdough pricing',
      })
    ).topic.id,
  );
}

await writeOne(topics.pop()!); // warm-up: first compile of the writer's paths
const sequential: number[] = [];
const articleIds: string[] = [];
for (const topicId of topics.slice(0, ARTICLES)) {
  const { articleId, ms } = await writeOne(topicId);
  sequential.push(ms);
  articleIds.push(articleId);
}
const burstStart = performance.now();
const burst = await Promise.all(topics.slice(ARTICLES, ARTICLES * 2).map(writeOne));
const burstTotalMs = performance.now() - burstStart;

const callsBefore = writer.calls.length;
for (const id of articleIds.slice(0, 5))
  await api('POST', `/articles/${id}/revise`, { instruction: 'Make it shorter.' });
while (
  (await Promise.all(articleIds.slice(0, 5).map((id) => api('GET', `/articles/${id}`)))).some(
    (r) => r.article.version < 2,
  )
)
  await new Promise((resolve) => setTimeout(resolve, 20));

const perArticle = new Map<string, number>();
for (const call of writer.calls.slice(0, callsBefore))
  if (call.method !== 'suggestTopics')
    perArticle.set(call.subject, (perArticle.get(call.subject) ?? 0) + 1);
const counts = [...perArticle.values()];
const result = {
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    node: process.version,
    loadAverage: loadavg().map((v) => Math.round(v * 100) / 100),
  },
  provider: writer.provider,
  writeToDraft: {
    oneAtATime: stats(sequential),
    twentyAtOnce: { ...stats(burst.map((entry) => entry.ms)), totalMs: Math.round(burstTotalMs) },
  },
  modelCalls: {
    perArticle: {
      min: Math.min(...counts),
      max: Math.max(...counts),
      mean: counts.reduce((a, b) => a + b, 0) / counts.length,
    },
    byMethod: Object.fromEntries(
      ['researchArticle', 'writeArticle', 'reviseArticle'].map((m) => [
        m,
        writer.count(m as 'researchArticle'),
      ]),
    ),
    perRevision: (writer.calls.length - callsBefore) / 5,
  },
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/pipeline.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify(result, null, 2));
await server.stop();
await site.close();
rmSync(dataDir, { recursive: true, force: true });
