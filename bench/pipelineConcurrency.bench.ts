/**
 * The pipeline at model speed: articles spread over projects, written through a local
 * OpenAI-compatible server that answers after BENCH_CALL_MS and allows BENCH_PROVIDER_LIMIT
 * requests in flight (429 with Retry-After beyond it). Inkstream's provider limit is set to the
 * same number (BENCH_INKSTREAM_LIMIT sets it higher, to see 429s at work). Reports the time until every article is drafted against the ideal
 * (model calls × call time ÷ limit), articles failed, and 429s the provider answered.
 * Run: npx node bench/pipelineConcurrency.bench.ts  → bench/results/pipelineConcurrency.json
 * The setting is the default (100 articles, 10 projects, 2000 ms, limit 16); a quick run:
 *   BENCH_CALL_MS=100 npx node bench/pipelineConcurrency.bench.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/core/config.ts';
import { startBenchServer } from './load/benchServer.ts';
import { startFakeOpenAi } from '../test/support/fakeOpenAi.ts';
import { answerEveryCall, kindOf } from '../test/support/modelAnswers.ts';
import { startTestSite } from '../test/support/testSite.ts';

const setting = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ARTICLES = setting('BENCH_ARTICLES', 100);
const PROJECTS = setting('BENCH_PROJECTS', 10);
const CALL_MS = setting('BENCH_CALL_MS', 2000);
const LIMIT = setting('BENCH_PROVIDER_LIMIT', 16);
/** Inkstream's own limit; above the provider's, the provider's 429s are what holds it back. */
const INKSTREAM_LIMIT = setting('BENCH_INKSTREAM_LIMIT', LIMIT);
const CALLS_PER_ARTICLE = 2; // research, then the draft

const fake = await startFakeOpenAi({
  respond: answerEveryCall,
  delayMs: CALL_MS,
  concurrencyLimit: { max: LIMIT, retryAfterMs: Math.max(1, Math.round(CALL_MS / 2)) },
});
const site = await startTestSite();
const dataDir = mkdtempSync(join(tmpdir(), 'inkstream-bench-concurrency-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  INKSTREAM_ALLOW_PRIVATE_URLS: '1',
  INKSTREAM_RATE_LIMIT_PER_MINUTE: '1000000',
  OPENAI_API_KEY: 'sk-bench',
  OPENAI_BASE_URL: fake.baseURL,
  INKSTREAM_DEFAULT_MODEL: 'gpt-fake',
  INKSTREAM_LLM_CONCURRENCY: String(INKSTREAM_LIMIT),
});
const { server, api } = await startBenchServer(config, {});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const projects: string[] = [];
for (let p = 0; p <= PROJECTS; p++)
  projects.push(
    (await api('POST', '/projects', { name: `Bakery ${p}`, websiteUrl: site.origin })).project.id,
  );
for (const id of projects)
  while ((await api('GET', `/projects/${id}`)).project.crawl.status === 'pending') await pause(50);
const topics: string[] = [];
for (let i = 0; i < ARTICLES; i++) {
  topics.push(
    (
      await api('POST', `/projects/${projects[i % PROJECTS]}/topics`, {
        title: `Bench article ${i}: pricing sourdough`,
        keyword: 'sourdough pricing',
      })
    ).topic.id,
  );
}

const requestsBefore = fake.requests.length;
const rateLimitedBefore = fake.rateLimited;
const start = performance.now();
const articleIds = await Promise.all(
  topics.map(
    async (topicId) => (await api('POST', `/topics/${topicId}/write`)).article.id as string,
  ),
);
// Then a lone article of one more project, queued behind the whole backlog.
const requestsBeforeLone = fake.requests.length;
const loneTopic = (
  await api('POST', `/projects/${projects[PROJECTS]}/topics`, {
    title: 'Lone article: a quiet bakery',
    keyword: 'quiet bakery',
  })
).topic.id as string;
articleIds.push((await api('POST', `/topics/${loneTopic}/write`)).article.id);
const settled = new Map<string, { status: string; ms: number }>();
while (settled.size < articleIds.length) {
  const events = await server.platform.eventStore.readAll({ categories: ['article'] });
  for (const event of events) {
    const id = String(event.data.articleId);
    if (settled.has(id) || (event.type !== 'ArticleDrafted' && event.type !== 'ArticleFailed'))
      continue;
    settled.set(id, {
      status: event.type === 'ArticleDrafted' ? 'draft' : 'failed',
      ms: performance.now() - start,
    });
  }
  if (settled.size < articleIds.length) await pause(Math.min(200, Math.max(10, CALL_MS / 10)));
}
const totalMs = performance.now() - start;

const articleCalls = fake.requests
  .slice(requestsBefore)
  .filter((request) => ['article_research', 'article_draft'].includes(kindOf(request)));
const idealMs = (articleIds.length * CALLS_PER_ARTICLE * CALL_MS) / LIMIT;
const answered = articleCalls.filter((request) => !request.overLimit);
const loneFirstCall = answered.findIndex((request) =>
  JSON.stringify(request.body.messages).includes('Lone article'),
);
const answeredBeforeLone = fake.requests
  .slice(requestsBefore, requestsBeforeLone)
  .filter((request) => answered.includes(request)).length;
const result = {
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    node: process.version,
    loadAverage: loadavg().map((v) => Math.round(v * 100) / 100),
  },
  setting: {
    articles: ARTICLES,
    projects: PROJECTS,
    callMs: CALL_MS,
    providerLimit: LIMIT,
    inkstreamLimit: INKSTREAM_LIMIT,
  },
  allDraftedMs: Math.round(totalMs),
  idealMs: Math.round(idealMs),
  ratioToIdeal: Math.round((totalMs / idealMs) * 100) / 100,
  withinTarget: totalMs <= idealMs * 1.2,
  drafted: [...settled.values()].filter((entry) => entry.status === 'draft').length,
  failed: [...settled.values()].filter((entry) => entry.status === 'failed').length,
  modelRequests: articleCalls.length,
  loneArticle: {
    queuedAfterCalls: answeredBeforeLone,
    firstCallAfterQueued: loneFirstCall + 1 - answeredBeforeLone,
    backlogCallsLeftThen: answered.length - loneFirstCall - 1 - 1, // its own second call is among the rest
  },
  answered429: fake.rateLimited - rateLimitedBefore,
  providerMaxInFlight: fake.maxConcurrent,
};
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/pipelineConcurrency.json', import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(JSON.stringify(result, null, 2));
await server.stop();
await site.close();
await fake.close();
rmSync(dataDir, { recursive: true, force: true });
