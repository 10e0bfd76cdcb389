import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../../src/core/clock.ts';
import { recrawlTick } from '../../../../src/features/pipeline/corpus/recrawlScheduler.ts';
import { startCorpusSite, type CorpusSite } from '../../../support/corpusSite.ts';
import { eventually } from '../../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../../support/inkstream.ts';
import { streamEvents } from '../../../support/pipelineHarness.ts';

let app: TestInkstream;
let site: CorpusSite;
let projectId: string;
const clock = manualClock(new Date().toISOString());

beforeAll(async () => {
  site = await startCorpusSite({ pages: 40 });
  app = await startInkstream({ clock, pipeline: { recrawl: { intervalMs: 3_600_000 } } });
  const created = await app.api().post('/projects', { name: 'Bakery', websiteUrl: site.origin });
  projectId = created.body.project.id;
  await eventually(
    () => app.api().get(`/projects/${projectId}`),
    (r) => r.body.project.corpus?.status === 'done',
    { what: 'the corpus crawl', timeoutMs: 30_000 },
  );
}, 60_000);
afterAll(async () => {
  await app?.close();
  await site?.close();
});

test('hostile queries and cursors answer 400, and another account sees 404', async () => {
  const api = app.api();
  expect((await api.get(`/projects/${projectId}/pages?q=${'x'.repeat(201)}`)).status).toBe(400);
  const bad = await api.get(`/projects/${projectId}/pages?q=rye&cursor=bm90LWpzb24`);
  expect(bad.status).toBe(400);
  expect(bad.body.error.code).toBe('bad_request');
  const first = await api.get(`/projects/${projectId}/pages?q=rye&limit=1`);
  const swapped = await api.get(
    `/projects/${projectId}/pages?q=oven&cursor=${first.body.nextCursor}`,
  );
  expect(swapped.status).toBe(400);
  // FTS syntax in q is a word like any other, never a query operator.
  const syntax = await api.get(
    `/projects/${projectId}/pages?q=${encodeURIComponent('rye" OR NEAR(*')}`,
  );
  expect(syntax.status).toBe(200);
  const other = app.api(await app.newKey('someone-else'));
  expect((await other.get(`/projects/${projectId}/pages?q=rye`)).status).toBe(404);
});

test('crawl settings: out-of-range values answer 400 and change nothing; valid ones merge', async () => {
  const api = app.api();
  for (const crawl of [{ maxPages: 0 }, { recrawlDays: -1 }, { maxPages: 'all' }, { depth: 3 }]) {
    const refused = await api.patch(`/projects/${projectId}`, { settings: { crawl } });
    expect(refused.status).toBe(400);
  }
  expect((await api.get(`/projects/${projectId}`)).body.project.settings.crawl).toBeUndefined();
  const changed = await api.patch(`/projects/${projectId}`, {
    settings: { crawl: { recrawlDays: 7 } },
  });
  expect(changed.status).toBe(200);
  expect(changed.body.project.settings.crawl).toEqual({ maxPages: 5000, recrawlDays: 7 });
});

test('the project read shows the corpus crawl: every page read, beyond the brand sample', async () => {
  const { body } = await app.api().get(`/projects/${projectId}`);
  expect(body.project.crawl.pagesCrawled).toBeLessThanOrEqual(25);
  expect(body.project.corpus).toMatchObject({
    status: 'done',
    pagesKnown: 41,
    pagesRead: 41,
    failed: 0,
    queued: 0,
    estimatedCompletionAt: null,
  });
  const events = await streamEvents(app.platform, `siteCorpus-${projectId}`);
  expect(events.map((event) => event.type)).toEqual([
    'SiteCorpusCrawlRequested',
    'SiteCorpusCrawled',
  ]);
  expect(JSON.stringify(events.map((event) => event.data))).not.toContain('Bakers ask about it'); // no page text in the log
});

test('GET /pages?q= finds the page that says it, in cursor pages', async () => {
  const api = app.api();
  const found = await api.get(
    `/projects/${projectId}/pages?q=${encodeURIComponent('rye flour number 34')}`,
  );
  expect(found.status).toBe(200);
  expect(found.body.pages[0]).toMatchObject({
    url: `${site.origin}/posts/post-34`,
    title: 'Post 34',
    state: 'read',
    passage: { text: expect.stringContaining('rye flour in Derby number 34') },
  });
  const seen = new Set<string>();
  let cursor: string | null = null;
  do {
    const page: { body: { pages: Array<{ url: string }>; nextCursor: string | null } } =
      await api.get(
        `/projects/${projectId}/pages?q=rye&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
    for (const item of page.body.pages) seen.add(item.url);
    cursor = page.body.nextCursor;
  } while (cursor);
  expect(seen.size).toBe(5); // posts 2, 10, 18, 26, 34 are about rye flour
  const listed = await api.get(`/projects/${projectId}/pages?limit=200`);
  expect(listed.body.pages).toHaveLength(41);
});

test('a topic that repeats a page the brand sample never read is flagged, naming that page', async () => {
  const { body } = await app
    .api()
    .get(`/projects/${projectId}/pages?q=${encodeURIComponent('oven temperatures number 33')}`);
  expect(body.pages[0].url).toBe(`${site.origin}/posts/post-33`);
  const created = await app
    .api()
    .post(`/projects/${projectId}/topics`, { title: 'Oven temperatures in Derby' });
  expect(created.status).toBe(201);
  expect(created.body.topic.overlap).toMatchObject({
    url: `${site.origin}/posts/post-33`,
    title: 'Post 33',
    source: 'site',
  });
  const fresh = await app
    .api()
    .post(`/projects/${projectId}/topics`, { title: 'Pricing a wedding cake' });
  expect(fresh.body.topic.overlap).toBeNull();
});

test('a week later the corpus is crawled again without anyone asking, reading only what changed', async () => {
  site.change([3]);
  site.log.length = 0;
  expect(await recrawlTick(app.platform, clock)).toBe(0); // not due yet
  clock.advance(7 * 86_400_000 + 1000);
  expect(await recrawlTick(app.platform, clock)).toBe(1);
  expect(await recrawlTick(app.platform, clock)).toBe(0); // asked once
  await eventually(
    async () => (await streamEvents(app.platform, `siteCorpus-${projectId}`)).length,
    (count) => count === 4,
    { what: 'the scheduled re-crawl', timeoutMs: 30_000 },
  );
  expect([...site.fullGets().keys()]).toEqual(['/posts/post-3']);
  const { body } = await app.api().get(`/projects/${projectId}`);
  expect(body.project.corpus).toMatchObject({ status: 'done', pagesRead: 1, skippedUnchanged: 40 });
});
