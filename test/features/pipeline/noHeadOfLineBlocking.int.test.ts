import { afterAll, beforeAll, expect, test } from 'vitest';
import { createOfflineWriter } from '../../../src/integrations/llm/offline/index.ts';
import type { ContentWriter } from '../../../src/integrations/llm/writer.ts';
import { WRITE_WORKER } from '../../../src/features/pipeline/writing/write.ts';
import { eventually } from '../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { streamEvents } from '../../support/pipelineHarness.ts';
import { startTestSite, type TestSite } from '../../support/testSite.ts';

/** An offline writer whose research calls wait until the test lets each one (by topic title) through. */
function gatedWriter(): ContentWriter & { researched: string[]; release(title: string): void } {
  const inner = createOfflineWriter();
  const researched: string[] = [];
  const gates = new Map<string, { open: () => void; opened: Promise<void> }>();
  const gate = (title: string) => {
    let entry = gates.get(title);
    if (!entry) {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      gates.set(title, (entry = { open, opened }));
    }
    return entry;
  };
  return {
    ...inner,
    researched,
    release: (title) => gate(title).open(),
    async researchArticle(input) {
      researched.push(input.topic.title);
      await gate(input.topic.title).opened;
      return inner.researchArticle(input);
    },
  };
}

let site: TestSite;
let app: TestInkstream;
const writer = gatedWriter();
const sites: TestSite[] = [];

beforeAll(async () => {
  site = await startTestSite();
  app = await startInkstream({ pipeline: { writer, concurrency: 2 } });
});
afterAll(async () => {
  for (const title of [
    'held-1',
    'held-2',
    'later',
    ...Array.from({ length: 5 }, (_, i) => `backlog-${i}`),
    'lone',
  ])
    writer.release(title);
  await app?.close();
  await Promise.all([site, ...sites].map((s) => s?.close()));
});

const api = () => app.api();
async function newProject(websiteUrl: string): Promise<string> {
  const response = await api().post('/projects', { name: 'Site', websiteUrl });
  expect(response.status).toBe(201);
  return response.body.project.id;
}
const crawlStatus = async (id: string) =>
  (await api().get(`/projects/${id}`)).body.project.crawl.status as string;
async function crawled(websiteUrl: string): Promise<string> {
  const id = await newProject(websiteUrl);
  await eventually(
    () => crawlStatus(id),
    (status) => status === 'done',
    { what: 'the crawl' },
  );
  return id;
}
async function write(projectId: string, title: string): Promise<string> {
  const topic = (await api().post(`/projects/${projectId}/topics`, { title })).body.topic;
  return (await api().post(`/topics/${topic.id}/write`)).body.article.id;
}

/** Waits until the writing process manager has taken the article's queued event from the log (not necessarily started it). */
async function seenByTheWriter(articleId: string): Promise<void> {
  const [queued] = await eventually(
    () => streamEvents(app.platform, `article-${articleId}`),
    (events) => events.length > 0,
    { what: 'the queued event' },
  );
  const consumer = app.background.consumers.find((c) => c.name === WRITE_WORKER)!;
  expect(await consumer.waitFor(queued.position, 5000)).toBe(true);
}

test('three fast sites are crawled while a slow site still holds its answers', async () => {
  let answerSlowSite!: () => void;
  const held = new Promise<void>((resolve) => {
    answerSlowSite = resolve;
  });
  let slowSiteAsked = false;
  const slow = await startTestSite({
    pages: {
      '/robots.txt': (_req, res) => {
        slowSiteAsked = true;
        void held.then(() => res.end('User-agent: *\nAllow: /\n'));
      },
    },
  });
  sites.push(slow);
  const slowProject = await newProject(slow.origin);
  await eventually(
    async () => slowSiteAsked,
    (asked) => asked,
    { what: 'the slow crawl to start' },
  );

  const fast = await Promise.all([1, 2, 3].map(() => startTestSite()));
  sites.push(...fast);
  const fastProjects = await Promise.all(fast.map((s) => newProject(s.origin)));
  for (const id of fastProjects)
    await eventually(
      () => crawlStatus(id),
      (status) => status === 'done',
      { what: 'a fast crawl' },
    );
  expect(await crawlStatus(slowProject)).toBe('pending');

  answerSlowSite();
  await eventually(
    () => crawlStatus(slowProject),
    (status) => status === 'done',
    { what: 'the slow crawl' },
  );
});

test('an article written while others are in flight starts as soon as a slot frees, without waiting for the rest', async () => {
  const projectId = await crawled(site.origin);
  await write(projectId, 'held-1');
  await write(projectId, 'held-2');
  await eventually(
    async () => [...writer.researched],
    (titles) => titles.includes('held-1') && titles.includes('held-2'),
    { what: 'both slots busy' },
  );

  const later = await write(projectId, 'later');
  writer.release('held-1');
  await eventually(
    async () => [...writer.researched],
    (titles) => titles.includes('later'),
    { what: 'the later article to start' },
  );
  writer.release('later');
  await eventually(
    () => api().get(`/articles/${later}`),
    (r) => r.body.article.status === 'draft',
    { what: 'the later draft' },
  );
  expect((await api().get(`/articles/${later}`)).body.article.status).toBe('draft');
  writer.release('held-2');
});

test("a lone article of a second project starts before the first project's backlog is done", async () => {
  const busy = await crawled(site.origin);
  const quiet = await crawled(sites[1].origin);
  const before = writer.researched.length;
  const backlog = Array.from({ length: 5 }, (_, i) => `backlog-${i}`);
  for (const title of backlog) await write(busy, title);
  await eventually(
    async () => writer.researched.length - before,
    (started) => started === 2,
    { what: 'the backlog to fill both slots' },
  );
  const lone = await write(quiet, 'lone');
  await seenByTheWriter(lone);

  // Each backlog article is let through only once it asked, one at a time: the lone one must get a slot on the way.
  for (const title of backlog) {
    if (writer.researched.slice(before).includes('lone')) break;
    await eventually(
      async () => writer.researched.slice(before),
      (titles) => titles.includes(title) || titles.includes('lone'),
      { what: `${title} or the lone article` },
    );
    writer.release(title);
  }
  const order = writer.researched.slice(before);
  expect(order).toContain('lone');
  expect(order.indexOf('lone')).toBeLessThan(backlog.length - 1);
  expect(backlog.filter((title) => order.includes(title)).length).toBeLessThan(backlog.length);
});
