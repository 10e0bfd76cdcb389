import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { eventually } from '../support/eventually.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fakeOpenAi.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { streamEvents } from '../support/pipelineHarness.ts';
import { startTestSite, type TestSite } from '../support/testSite.ts';

/**
 * A model that fails during the brand crawl: the crawl still finishes with the voice measured from
 * the site, and says why on the crawl (API) and on the brand page. The provider's own words (here
 * with markup) are not repeated: the reason is Inkstream's sentence with the status.
 */
const PROVIDER_TEXT = '<img src=x onerror="window.pwned=1"> Incorrect API key provided';
let site: TestSite;
let openAi: FakeOpenAi;
let inkstream: TestInkstream;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  site = await startTestSite();
  openAi = await startFakeOpenAi({
    respond: () => ({
      kind: 'error',
      status: 401,
      message: PROVIDER_TEXT,
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    }),
  });
  inkstream = await startInkstream({ env: openAi.env });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
  await openAi?.close();
  await site?.close();
});

test.skipIf(!hasChromium)(
  'a model answering 401 leaves the measured voice and the reason on the crawl and the brand page, as text',
  { timeout: 120_000 },
  async () => {
    const api = inkstream.api();
    const projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
      .project.id;
    const project = await eventually(
      async () => (await api.get(`/projects/${projectId}`)).body.project,
      (read) => read.crawl.status !== 'pending',
      { what: 'the crawl' },
    );
    expect(openAi.requests.length).toBeGreaterThan(0);
    expect(project.crawl.status).toBe('done');
    expect(project.crawl.failureReason).toBeNull();
    const reason: string = project.crawl.voiceFallbackReason;
    expect(reason).toMatch(
      /^The voice was measured from the site because the model answered 401: /,
    );
    expect(reason).toContain('OPENAI_API_KEY');
    expect(reason).not.toContain('<img');
    const [crawled] = (await streamEvents(inkstream.platform, `project-${projectId}`)).filter(
      (event) => event.type === 'BrandCrawled',
    );
    expect(crawled.data).toMatchObject({
      provider: 'offline',
      model: null,
      voiceFallbackReason: reason,
    });
    const brand = (await api.get(`/projects/${projectId}/brand`)).body.brand;
    expect(brand.lastCrawl.voiceFallbackReason).toBe(reason);

    const page = await signedInPage(browser, inkstream, {
      email: 'editor@test.example',
      role: 'editor',
    });
    await page.goto(`${inkstream.url}/projects/${projectId}/brand`);
    const changes = page.getByRole('region', { name: 'What the last crawl changed' });
    await changes.getByRole('note').waitFor({ timeout: 30_000 });
    expect(await changes.getByRole('note').textContent()).toBe(reason);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    await checkPage(page, 'brand-voice-fallback');
  },
);

test.skipIf(!hasChromium)(
  'a crawl without a model set up says nothing of a fallback',
  { timeout: 120_000 },
  async () => {
    const offline = await startInkstream();
    try {
      const api = offline.api();
      const projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin }))
        .body.project.id;
      const project = await eventually(
        async () => (await api.get(`/projects/${projectId}`)).body.project,
        (read) => read.crawl.status !== 'pending',
        { what: 'the crawl' },
      );
      expect(project.crawl).toMatchObject({ status: 'done', voiceFallbackReason: null });
      const brand = (await api.get(`/projects/${projectId}/brand`)).body.brand;
      expect(brand.lastCrawl.voiceFallbackReason).toBeNull();
    } finally {
      await offline.close();
    }
  },
);
