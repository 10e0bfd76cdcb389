import { beforeAll, beforeEach, expect, test } from 'vitest';
import { articleStream } from '../../../../src/domain/articles/decide.ts';
import { parseMdx } from '../../../../src/mdx/mdx.ts';
import { LlmError } from '../../../../src/integrations/llm/port.ts';
import type { RunningWorker } from '../../../../src/consumers/worker.ts';
import { createPipelineContext } from '../../../../src/features/pipeline/context.ts';
import { writeProcess } from '../../../../src/features/pipeline/writing/write.ts';
import { eventually } from '../../../support/eventually.ts';
import type { TestInkstream } from '../../../support/inkstream.ts';
import {
  pump,
  recordingWriter,
  redeliver,
  stopBackgroundWork,
  streamEvents,
  type RecordingWriter,
} from '../../../support/pipelineHarness.ts';
import { useSiteAndInkstream } from '../../../support/siteAndInkstream.ts';
import type { TestSite } from '../../../support/testSite.ts';

let app: TestInkstream;
let site: TestSite;
let projectId: string;
let writer: RecordingWriter;
let handler: ReturnType<typeof writeProcess>;

const world = useSiteAndInkstream();
beforeAll(async () => {
  ({ app, site } = world);
  projectId = (await app.api().post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id;
  await eventually(
    () => app.api().get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status === 'done',
    { what: 'the crawl' },
  );
  await stopBackgroundWork(app);
});
beforeEach(() => {
  writer = recordingWriter();
  handler = writeProcess(createPipelineContext(app.platform, { writer }));
});

async function queuedArticle(title: string): Promise<string> {
  const topic = (
    await app.api().post(`/projects/${projectId}/topics`, { title, keyword: title.toLowerCase() })
  ).body.topic;
  return (await app.api().post(`/topics/${topic.id}/write`)).body.article.id;
}

const types = async (articleId: string) =>
  (await streamEvents(app.platform, `article-${articleId}`)).map((event) => event.type);
const state = async (articleId: string) => {
  const events = await streamEvents(app.platform, `article-${articleId}`);
  return events.reduce((s, e) => articleStream.evolve(s, e as never), articleStream.initial());
};

test('queued → researching → writing → draft, one model call per step, and a redelivered event redoes nothing', async () => {
  const articleId = await queuedArticle('Proofing schedules for small teams');
  await pump(app.platform, handler, `article-${articleId}`);
  expect(await types(articleId)).toEqual([
    'ArticleQueued',
    'ArticleResearchStarted',
    'ArticleStepRecorded',
    'ArticleResearched',
    'ArticleStepRecorded',
    'ArticleDrafted',
  ]);
  expect(writer.calls.map((call) => call.method)).toEqual(['researchArticle', 'writeArticle']);

  const drafted = (await streamEvents(app.platform, `article-${articleId}`))[5];
  expect(drafted.data).toMatchObject({
    version: 1,
    purpose: 'write',
    generation: { provider: 'offline', model: 'inkstream-offline-1' },
  });
  expect(drafted.metadata).toMatchObject({
    actor: { kind: 'system', worker: 'pipeline.write' },
    causationId: (await streamEvents(app.platform, `article-${articleId}`))[3].id,
  });
  const { frontmatter } = parseMdx(String(drafted.data.mdx));
  expect(frontmatter).toMatchObject({
    author: 'Crumb & Co.',
    brand: 'Crumb & Co.',
    keyword: 'proofing schedules for small teams',
    generator: { provider: 'offline' },
  });

  await redeliver(app.platform, handler, `article-${articleId}`);
  await redeliver(app.platform, handler, `article-${articleId}`);
  expect(await types(articleId)).toHaveLength(6);
  expect(writer.calls).toHaveLength(2);
});

test("a step that fails after the adapter's retries fails the article with what to do; retry resumes at that step only", async () => {
  const articleId = await queuedArticle('Pricing sourdough');
  writer.failNext(
    'writeArticle',
    new LlmError('server', 'The model server kept answering 503 Service Unavailable.'),
  );
  await pump(app.platform, handler, `article-${articleId}`);
  const failed = await state(articleId);
  expect(failed).toMatchObject({ status: 'failed', failure: { step: 'writing' } });
  expect(failed.status === 'failed' && failed.failure?.reason).toMatch(
    /Writing failed: The model server kept answering 503.*POST \/api\/v1\/articles\/art_\w+\/retry/,
  );

  const retried = await app.api().post(`/articles/${articleId}/retry`);
  expect(retried.status).toBe(202);
  await pump(app.platform, handler, `article-${articleId}`);
  expect(await state(articleId)).toMatchObject({ status: 'draft', version: 1 });
  expect(writer.count('researchArticle')).toBe(1);
  expect(writer.count('writeArticle')).toBe(2);
  expect((await types(articleId)).filter((type) => type === 'ArticleDrafted')).toHaveLength(1);
});

test('a configuration error says what to fix', async () => {
  const articleId = await queuedArticle('Holiday pre-orders');
  writer.failNext(
    'researchArticle',
    new LlmError('auth', 'The model server refused the API key (401).'),
  );
  await pump(app.platform, handler, `article-${articleId}`);
  const failed = await state(articleId);
  expect(failed).toMatchObject({
    status: 'failed',
    failure: { step: 'researching', reason: expect.stringContaining('Check OPENAI_API_KEY') },
  });
});

test('a refresh re-researches and rewrites the published article, keeping slug and date, and waits in writing for the publisher', async () => {
  const articleId = await queuedArticle('Inventory for bakeries');
  await pump(app.platform, handler, `article-${articleId}`);
  const first = await state(articleId);
  const context = (step: string) => ({
    accountId: 'acc',
    actor: { kind: 'system' as const, worker: 'test' },
    correlationId: step,
    requestId: step,
    commandId: `${articleId}:${step}`,
  });
  const at = app.platform.clock.now();
  await app.platform.commands.execute(
    articleStream,
    articleId,
    { type: 'ApproveArticle', mode: 'direct', at },
    context('approve'),
  );
  await app.platform.commands.execute(
    articleStream,
    articleId,
    {
      type: 'RecordMerged',
      commitSha: 'abc',
      prUrl: null,
      path: 'content/blog/x.mdx',
      mergedBy: null,
      at,
    },
    context('merged'),
  );
  await app.platform.commands.execute(
    articleStream,
    articleId,
    { type: 'RefreshArticle', refreshId: 'ref_1', at },
    context('refresh'),
  );

  await pump(app.platform, handler, `article-${articleId}`);
  const refreshed = await state(articleId);
  expect(refreshed).toMatchObject({ status: 'writing', purpose: 'refresh', version: 2 });
  const before = parseMdx(first.status === 'none' ? '' : first.mdx!).frontmatter;
  const after = parseMdx(refreshed.status === 'none' ? '' : refreshed.mdx!).frontmatter;
  expect(after).toMatchObject({
    slug: before.slug,
    date: before.date,
    updated: expect.any(String),
  });
  expect(writer.calls.map((call) => call.method)).toEqual([
    'researchArticle',
    'writeArticle',
    'researchArticle',
    'writeArticle',
  ]);
  expect(writer.calls[2].subject).toBe('Inventory for bakeries');

  await redeliver(app.platform, handler, `article-${articleId}`);
  expect(writer.calls).toHaveLength(4);
  expect((await types(articleId)).filter((type) => type === 'ArticleDrafted')).toHaveLength(2);
});

test('a step cut short because the pipeline stops is not recorded as a failure: it runs again once the pipeline runs again', async () => {
  const articleId = await queuedArticle('Stopping mid-step');
  const inner = recordingWriter();
  let running: RunningWorker;
  const ctx = createPipelineContext(app.platform, {
    writer: {
      ...inner,
      researchArticle: async (input) => {
        if (inner.count('researchArticle') === 0) {
          await inner.researchArticle(input);
          await running.stop(); // the lease was lost or the server shuts down while the model answers
          throw new Error('socket closed');
        }
        return inner.researchArticle(input);
      },
    },
  });
  running = await ctx.lifecycle.start(undefined);
  const stopping = writeProcess(ctx);
  await expect(pump(app.platform, stopping, `article-${articleId}`)).rejects.toThrow(
    'socket closed',
  );
  expect(await state(articleId)).toMatchObject({ status: 'researching', failure: null });

  running = await ctx.lifecycle.start(undefined);
  await pump(app.platform, stopping, `article-${articleId}`);
  expect(await state(articleId)).toMatchObject({ status: 'draft' });
  expect(inner.count('researchArticle')).toBe(2);
});
