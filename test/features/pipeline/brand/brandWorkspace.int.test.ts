import { get } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../../support/inkstream.ts';
import { startTestSite, type TestSite } from '../../../support/testSite.ts';
import { defaultSitePages } from '../../../support/testSitePages.ts';

/** The test site, whose /about page a test can change between two crawls. */
let teamSize = '40';
let site: TestSite;
let app: TestInkstream;
beforeAll(async () => {
  const about = defaultSitePages['/about'] as string;
  site = await startTestSite({
    pages: {
      '/about': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(about.replace('team of 40', `team of ${teamSize}`));
      },
    },
  });
  app = await startInkstream();
});
afterAll(async () => {
  await app?.close();
  await site?.close();
});

async function crawled(id: string) {
  return eventually(
    () =>
      app
        .api()
        .get(`/projects/${id}/brand`)
        .then((r) => r.body.brand),
    (brand) => brand.crawlStatus === 'done',
    { what: 'the crawl' },
  );
}

async function crawledProject(): Promise<string> {
  const id = (await app.api().post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id as string;
  await crawled(id);
  return id;
}

const coverSample = (id: string, headers: Record<string, string> = {}, key = app.key) =>
  fetch(`${app.url}/api/v1/projects/${id}/brand/cover-sample`, {
    headers: { authorization: `Bearer ${key}`, ...headers },
  });

/** node:http, not fetch: fetch adds "cache-control: no-cache" to a conditional request, which asks for the bytes. */
const conditionalStatus = (id: string, ifNoneMatch: string) =>
  new Promise<number>((resolve, reject) => {
    get(
      `${app.url}/api/v1/projects/${id}/brand/cover-sample`,
      { headers: { authorization: `Bearer ${app.key}`, 'if-none-match': ifNoneMatch } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode!));
      },
    ).on('error', reject);
  });

test('a fact whose source is not a web page (javascript:, data:) is refused on its field, and nothing changes', async () => {
  const id = await crawledProject();
  const before = (await app.api().get(`/projects/${id}/brand`)).body.brand;
  for (const sourceUrl of [
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'JaVaScRiPt:alert(1)',
  ]) {
    const refused = await app.api().put(`/projects/${id}/brand`, {
      companyFacts: [{ kind: 'other', value: 'Click me', sourceUrl }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((detail: { path: string }) => detail.path)).toContain(
      'body.companyFacts.0.sourceUrl',
    );
  }
  expect((await app.api().get(`/projects/${id}/brand`)).body.brand).toEqual(before);
});

test('the cover sample of an unknown project is 404, and of a project of another account too', async () => {
  expect((await coverSample('prj_00000000000000000000000000')).status).toBe(404);
  const id = (await app.api().post('/projects', { name: 'Ours', websiteUrl: site.origin })).body
    .project.id as string;
  expect((await coverSample(id)).status).toBe(200);
  expect((await coverSample(id, {}, await app.newKey('someone-else'))).status).toBe(404);
});

test('each crawled fact carries the page and the sentence it was read from', async () => {
  const id = await crawledProject();
  const facts = (await app.api().get(`/projects/${id}/brand`)).body.brand.companyFacts;
  expect(facts).toContainEqual({
    kind: 'founded',
    value: '2011',
    sourceUrl: site.url('/about'),
    evidence:
      'Crumb & Co. was founded in 2011 in Portland by two bakers who were tired of paper order books.',
  });
  expect(facts).toContainEqual(
    expect.objectContaining({
      kind: 'team',
      value: '40',
      evidence: expect.stringContaining('team of 40'),
    }),
  );
  // A fact a person enters has neither.
  const edited = await app.api().put(`/projects/${id}/brand`, {
    companyFacts: [...facts, { kind: 'other', value: 'We deliver on Sundays' }],
  });
  expect(edited.body.brand.companyFacts.at(-1)).toEqual({
    kind: 'other',
    value: 'We deliver on Sundays',
    sourceUrl: null,
    evidence: null,
  });
});

test('after a re-crawl the brand says what changed, what each changed part was before, and which edited parts were kept', async () => {
  teamSize = '40';
  const id = await crawledProject();
  const first = (await app.api().get(`/projects/${id}/brand`)).body.brand;
  expect(first.lastCrawl).toMatchObject({ initial: true, keptEditedParts: [] });

  expect(
    (
      await app
        .api()
        .put(`/projects/${id}/brand`, { voice: { summary: 'Short, warm, no jargon.' } })
    ).status,
  ).toBe(200);
  teamSize = '55';
  expect((await app.api().post(`/projects/${id}/crawl`)).status).toBe(202);
  const after = await eventually(
    () =>
      app
        .api()
        .get(`/projects/${id}/brand`)
        .then((r) => r.body.brand),
    (brand) => brand.crawlStatus === 'done' && brand.lastCrawl?.crawlId !== first.lastCrawl.crawlId,
    { what: 'the re-crawl' },
  );
  teamSize = '40';

  expect(after.voice.summary).toBe('Short, warm, no jargon.');
  expect(after.lastCrawl).toMatchObject({
    initial: false,
    changedParts: ['companyFacts'],
    keptEditedParts: ['voice'],
  });
  expect(after.lastCrawl.before.companyFacts).toContainEqual(
    expect.objectContaining({ kind: 'team', value: '40' }),
  );
  expect(after.companyFacts).toContainEqual(expect.objectContaining({ kind: 'team', value: '55' }));
  // The project read is unchanged in shape: the summary belongs to the brand.
  expect((await app.api().get(`/projects/${id}`)).body.project).not.toHaveProperty(
    'lastBrandCrawl',
  );
});

test('the cover sample is a PNG drawn from the brand, redrawn when the cover style changes, and revalidated by its ETag', async () => {
  const id = await crawledProject();
  const first = await coverSample(id);
  expect(first.status).toBe(200);
  expect(first.headers.get('content-type')).toBe('image/png');
  expect(first.headers.get('x-content-type-options')).toBe('nosniff');
  const firstBytes = Buffer.from(await first.arrayBuffer());
  expect(firstBytes.subarray(1, 4).toString('latin1')).toBe('PNG');

  const etag = first.headers.get('etag')!;
  expect(await conditionalStatus(id, etag)).toBe(304);

  const current = (await app.api().get(`/projects/${id}/brand`)).body.brand.coverStyle;
  const shapes = current.shapes === 'grid' ? 'circles' : 'grid';
  expect((await app.api().put(`/projects/${id}/brand`, { coverStyle: { shapes } })).status).toBe(
    200,
  );
  expect(await conditionalStatus(id, etag)).toBe(200);
  const redrawn = await coverSample(id);
  expect(Buffer.from(await redrawn.arrayBuffer()).equals(firstBytes)).toBe(false);
});
