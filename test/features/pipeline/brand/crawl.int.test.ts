import { expect, test } from 'vitest';
import { BrandProfile, PAGE_TEXT_LIMIT } from '../../../../src/domain/projects/brand.ts';
import { eventually } from '../../../support/eventually.ts';
import { startHttpServer } from '../../../support/httpServer.ts';
import { streamEvents } from '../../../support/pipelineHarness.ts';
import { page, startTestSite } from '../../../support/testSite.ts';
import { useSiteAndInkstream } from '../../../support/siteAndInkstream.ts';

const world = useSiteAndInkstream();

async function crawledProject(websiteUrl: string) {
  const id = (await world.app.api().post('/projects', { name: 'Site', websiteUrl })).body.project
    .id as string;
  const project = await eventually(
    () =>
      world.app
        .api()
        .get(`/projects/${id}`)
        .then((r) => r.body.project),
    (p) => p.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  return { id, project };
}

const crawlEvents = async (projectId: string) =>
  (await streamEvents(world.app.platform, `project-${projectId}`)).filter(
    (event) => event.type === 'BrandCrawled' || event.type === 'BrandCrawlFailed',
  );

test('the crawl records a brand profile in the public shape and page summaries within their limits', async () => {
  const { id, project } = await crawledProject(world.site.origin);
  expect(project.crawl).toMatchObject({ status: 'done', failureReason: null });
  const [crawled] = await crawlEvents(id);
  expect(crawled.type).toBe('BrandCrawled');
  const data = crawled.data as {
    profile: unknown;
    pages: Array<{ url: string; text: string }>;
    changedParts: string[];
    provider: string;
    model: string | null;
  };
  expect(() => BrandProfile.parse(data.profile)).not.toThrow();
  expect(data).toMatchObject({ provider: 'offline', model: null });
  expect(project.brand.voice.language).toBe('en-US'); // the site's <html lang>, so writers write in it
  expect(data.changedParts).toEqual(
    expect.arrayContaining(['voice', 'companyFacts', 'coverStyle']),
  );
  expect(data.pages.map((p) => p.url)).toEqual(
    expect.arrayContaining([
      world.site.url('/'),
      world.site.url('/about'),
      world.site.url('/blog'),
    ]),
  );
  expect(data.pages.every((p) => p.text.length <= PAGE_TEXT_LIMIT)).toBe(true);
  expect(data.pages.some((p) => p.url.includes('/private/'))).toBe(false);
  expect(crawled.metadata.actor).toEqual({ kind: 'system', worker: 'pipeline.crawl' });
  expect(project.brand.companyFacts).toEqual(
    expect.arrayContaining([expect.objectContaining({ kind: 'name', value: 'Crumb & Co.' })]),
  );
});

test('a re-crawl keeps a part the user set unless asked to overwrite it, and records what changed', async () => {
  const { id } = await crawledProject(world.site.origin);
  const voice = { summary: 'Our own words: short, warm, no jargon.' };
  expect((await world.app.api().put(`/projects/${id}/brand`, { voice })).status).toBe(200);

  await world.app.api().post(`/projects/${id}/crawl`);
  await eventually(
    () => crawlEvents(id),
    (events) => events.length === 2,
  );
  const kept = (await world.app.api().get(`/projects/${id}`)).body.project;
  expect(kept.brand.voice.summary).toBe(voice.summary);
  expect((await crawlEvents(id))[1].data).toMatchObject({
    keptEditedParts: ['voice'],
    changedParts: [],
  });

  await world.app.api().post(`/projects/${id}/crawl`, { overwriteEditedParts: true });
  await eventually(
    () => crawlEvents(id),
    (events) => events.length === 3,
  );
  const overwritten = (await world.app.api().get(`/projects/${id}`)).body.project;
  expect(overwritten.brand.voice.summary).not.toBe(voice.summary);
  expect((await crawlEvents(id))[2].data).toMatchObject({
    keptEditedParts: [],
    changedParts: ['voice'],
  });
});

test('at most 25 pages are kept from a large site', async () => {
  const many: Record<string, string> = { '/robots.txt': 'User-agent: *\nAllow: /\n' };
  many['/'] = page(
    Array.from({ length: 40 }, (_, i) => `<p><a href="/p${i}">Page ${i}</a></p>`).join(''),
    'Home',
  );
  for (let i = 0; i < 40; i++)
    many[`/p${i}`] = page(
      `<h1>Page ${i}</h1><p>Some words about topic number ${i} and how we handle it.</p>`,
      `Page ${i}`,
    );
  const big = await startTestSite({ pages: many, replaceDefaults: true });
  try {
    const { project } = await crawledProject(big.origin);
    expect(project.crawl.status).toBe('done');
    expect(project.crawl.pagesCrawled).toBe(25);
  } finally {
    await big.close();
  }
});

test('a site that forbids crawling, one that is down, and one that only answers 404 each end failed with a reason the owner can act on', async () => {
  const blocked = await startTestSite({ pages: { '/robots.txt': 'User-agent: *\nDisallow: /\n' } });
  const empty = await startTestSite({ replaceDefaults: true });
  const gone = await startHttpServer((_req, res) => res.end());
  await gone.close();
  try {
    const [robots, down, notFound] = await Promise.all([
      crawledProject(blocked.origin),
      crawledProject(gone.origin),
      crawledProject(empty.origin),
    ]);
    expect(robots.project.crawl).toMatchObject({
      status: 'failed',
      failureReason: expect.stringMatching(/robots\.txt .* does not allow "Inkstream"/),
    });
    expect(down.project.crawl).toMatchObject({
      status: 'failed',
      failureReason: expect.stringContaining(`Could not reach ${gone.origin}`),
    });
    expect(notFound.project.crawl).toMatchObject({
      status: 'failed',
      failureReason: expect.stringMatching(/HTTP error|404/),
    });
    expect(robots.project.brand).toBeNull();
    expect((await crawlEvents(down.id)).map((event) => event.type)).toEqual(['BrandCrawlFailed']);
  } finally {
    await blocked.close();
    await empty.close();
  }
});
