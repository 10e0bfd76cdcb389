import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { reply, startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';
import { farmSitePages } from '../../support/farmSitePages.ts';
import { startInkstream, type ApiClient, type TestInkstream } from '../../support/inkstream.ts';
import { kindOf, modelAnswers } from '../../support/modelAnswers.ts';
import { page, startTestSite, type TestSite } from '../../support/testSite.ts';

const {
  '/guides/farm-handbook': _handbook,
  '/notes/visitor-notes': _notes,
  ...farmPages
} = farmSitePages;
/**
 * A tea shop whose brewing post is named for its URL only (its title says nothing about green tea),
 * and whose sitemap lists a members' page the crawl may not read.
 */
const teaPages = {
  '/robots.txt': 'User-agent: *\nDisallow: /members/\nSitemap: {{origin}}/sitemap.xml\n',
  '/sitemap.xml': `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url><loc>{{origin}}/</loc></url><url><loc>{{origin}}/members/cold-brewed-sencha</loc></url></urlset>`,
  '/': page(
    '<main><h1>Fernleaf Tea</h1><p>Single-estate loose-leaf tea from Bristol. Read <a href="/blog/brewing-green-tea">our brewing notes</a>.</p></main>',
    'Fernleaf Tea',
  ),
  '/blog/brewing-green-tea': page(
    '<main><article><h1>The perfect cup</h1><p>Water at 70 to 80 degrees keeps green tea sweet. Two minutes is a good first steep.</p></article></main>',
    'The perfect cup | Fernleaf Tea',
  ),
};
const idea = (title: string, keyword: string) => ({
  title,
  keyword,
  brief: `All about ${keyword}.`,
  rationale: 'The shop sells it.',
});
const teaIdeas = [
  idea('How to Brew Green Tea: A Complete Guide', 'brew green tea'),
  idea('Oolong for beginners', 'oolong tea'),
  idea('Storing loose-leaf tea at home', 'store loose leaf tea'),
  idea('Matcha grades explained', 'matcha grades'),
  idea('Caffeine in white tea', 'white tea caffeine'),
  idea('Pairing tea with cheese', 'tea and cheese'),
  idea('Cold-brewed sencha', 'cold brew sencha'),
];

let fake: FakeOpenAi;
let farm: TestSite;
let tea: TestSite;
let offline: TestInkstream;
let withModel: TestInkstream;
beforeAll(async () => {
  fake = await startFakeOpenAi({
    respond: (request) =>
      reply.object(
        kindOf(request) === 'topic_suggestions'
          ? { topics: teaIdeas }
          : (modelAnswers()[kindOf(request)] ?? {}),
      ),
  });
  farm = await startTestSite({ pages: farmPages, replaceDefaults: true });
  tea = await startTestSite({ pages: teaPages, replaceDefaults: true });
  offline = await startInkstream();
  withModel = await startInkstream({
    env: { ...fake.env, INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000' },
  });
});
afterAll(async () => {
  await offline?.close();
  await withModel?.close();
  await farm?.close();
  await tea?.close();
  await fake?.close();
});

async function crawled(api: ApiClient, site: TestSite): Promise<string> {
  const id = (await api.post('/projects', { name: 'Site', websiteUrl: site.origin })).body.project
    .id as string;
  const project = await eventually(
    () => api.get(`/projects/${id}`).then((r) => r.body.project),
    (p) => p.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  expect(project.crawl.status).toBe('done');
  return id;
}

async function suggestedTitles(api: ApiClient, projectId: string): Promise<string[]> {
  const run = (await api.post(`/projects/${projectId}/topics/suggest`)).body.run.id as string;
  const project = await eventually(
    () => api.get(`/projects/${projectId}`).then((r) => r.body.project),
    (p) => p.research?.runId === run && p.research.status !== 'running',
    { what: 'research' },
  );
  expect(project.research.status).toBe('done');
  return (await api.get(`/projects/${projectId}/topics?status=suggested`)).body.topics.map(
    (topic: { title: string }) => topic.title,
  );
}

test('a hand-added topic of framing words only, or of markup, overlaps no page: it is created unflagged', async () => {
  const api = offline.api();
  const projectId = await crawled(api, farm);
  for (const title of [
    'The Complete Guide',
    '<Costing onClick={x} />',
    'Everything you need to know',
  ]) {
    const created = await api.post(`/projects/${projectId}/topics`, { title });
    expect(created.status).toBe(201);
    expect(created.body.topic.overlap).toBeNull();
  }
});

test('a hand-added topic that repeats a page of the site is created, flagged with that page and the advice to refresh it', async () => {
  const api = offline.api();
  const projectId = await crawled(api, farm);
  const created = await api.post(`/projects/${projectId}/topics`, {
    title: 'Costing: A Practical Guide',
  });
  expect(created.status).toBe(201);
  const overlap = {
    url: farm.url('/guides/enterprise-costing'),
    title: 'Enterprise costing for mixed farms | Fold & Furrow',
    source: 'site',
    articleId: null,
    advice: expect.stringMatching(/refreshing that page instead/),
  };
  expect(created.body.topic).toMatchObject({ status: 'approved', overlap });
  expect((await api.get(`/topics/${created.body.topic.id}`)).body.topic.overlap).toEqual(overlap);
  const fresh = await api.post(`/projects/${projectId}/topics`, {
    title: 'Hedgerow planting for wildlife',
  });
  expect(fresh.body.topic.overlap).toBeNull();
});

test('offline suggestions leave out topics that would compete with a page of the site', async () => {
  const api = offline.api();
  const projectId = await crawled(api, farm);
  const titles = await suggestedTitles(api, projectId);
  expect(titles.length).toBeGreaterThanOrEqual(5);
  for (const title of titles) expect(title).not.toMatch(/costing|mixed farms/i);
}, 30_000);

test("a model's suggestion that repeats a page of the site (matched by its URL) is dropped, and the page is in the prompt's do-not-repeat list", async () => {
  const api = withModel.api();
  const projectId = await crawled(api, tea);
  const from = fake.requests.length;
  const titles = await suggestedTitles(api, projectId);
  expect(titles).not.toContain('How to Brew Green Tea: A Complete Guide');
  expect(titles).not.toContain('Cold-brewed sencha');
  expect(tea.requested('/members/cold-brewed-sencha')).toBe(false);
  expect(titles).toEqual(
    expect.arrayContaining(['Oolong for beginners', 'Matcha grades explained']),
  );
  const prompt = fake.requests
    .slice(from)
    .find((request) => kindOf(request) === 'topic_suggestions')!.body.messages[1].content as string;
  const list = prompt.slice(
    prompt.indexOf('turned down on purpose:'),
    prompt.indexOf("The site's pages:"),
  );
  expect(list).toContain('The perfect cup | Fernleaf Tea');
}, 30_000);

test("a hand-added topic that repeats a page only the sitemap lists is flagged with that page's URL", async () => {
  const api = withModel.api();
  const projectId = await crawled(api, tea);
  const created = await api.post(`/projects/${projectId}/topics`, {
    title: 'Cold brewed sencha',
    keyword: 'cold brew sencha',
  });
  expect(created.body.topic.overlap).toMatchObject({
    url: tea.url('/members/cold-brewed-sencha'),
    title: '',
    source: 'site',
  });
});
