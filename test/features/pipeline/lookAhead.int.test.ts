import { afterAll, beforeAll, expect, test } from 'vitest';
import { createOfflineWriter } from '../../../src/integrations/llm/offline/index.ts';
import type { ContentWriter } from '../../../src/integrations/llm/writer.ts';
import { WRITE_WORKER } from '../../../src/features/pipeline/writing/write.ts';
import { eventually } from '../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { streamEvents } from '../../support/pipelineHarness.ts';
import { startTestSite, type TestSite } from '../../support/testSite.ts';

/** Research of the first article waits until the test lets it through; everything else runs at once. */
let releaseHeld!: () => void;
const held = new Promise<void>((resolve) => {
  releaseHeld = resolve;
});
const offline = createOfflineWriter();
const writer: ContentWriter = {
  ...offline,
  async researchArticle(input) {
    if (input.topic.title === 'held') await held;
    return offline.researchArticle(input);
  },
};

let site: TestSite;
let app: TestInkstream;
beforeAll(async () => {
  site = await startTestSite();
  app = await startInkstream({
    pipeline: { writer },
    env: { INKSTREAM_PIPELINE_LOOKAHEAD: '3', INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000' },
  });
});
afterAll(async () => {
  releaseHeld();
  await app?.close();
  await site?.close();
});

test('behind one unfinished step the runner takes only its look-ahead from the log, and the backlog runs once the step is done', async () => {
  const api = app.api();
  const projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id as string;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status === 'done',
    { what: 'the crawl' },
  );
  const write = async (title: string) => {
    const topic = (await api.post(`/projects/${projectId}/topics`, { title })).body.topic;
    return (await api.post(`/topics/${topic.id}/write`)).body.article.id as string;
  };
  const heldId = await write('held');
  await eventually(
    () => api.get(`/articles/${heldId}`),
    (r) => r.body.article.status === 'researching',
    { what: 'the held research' },
  );
  const backlog: string[] = [];
  for (let i = 0; i < 6; i++) backlog.push(await write(`backlog ${i}`));
  const lastQueued = (
    await eventually(
      () => streamEvents(app.platform, `article-${backlog[5]}`),
      (events) => events.length > 0,
      { what: 'the last queued event' },
    )
  )[0];

  const writer = app.background.consumers.find((consumer) => consumer.name === WRITE_WORKER)!;
  expect(await writer.waitFor(lastQueued.position, 300)).toBe(false); // still in the log, not in memory
  const statuses = async () =>
    Promise.all(
      backlog.map((id) => api.get(`/articles/${id}`).then((r) => r.body.article.status as string)),
    );
  expect((await statuses()).filter((status) => status === 'draft').length).toBeLessThan(
    backlog.length,
  );

  releaseHeld();
  await eventually(statuses, (all) => all.every((status) => status === 'draft'), {
    what: 'the backlog drafted',
  });
  await eventually(
    () => api.get(`/articles/${heldId}`),
    (r) => r.body.article.status === 'draft',
    { what: 'the held draft' },
  );
});
