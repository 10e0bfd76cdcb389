import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../src/core/clock.ts';
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import { advanceArticle } from '../support/articleLife.ts';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { HOSTILE_QUERY, LABELLED_SERIES, rowsOf } from '../support/decaySeries.ts';
import { eventually } from '../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { stopPipeline } from '../support/stopPipeline.ts';
import {
  connectBody,
  googleEnv,
  integrationPath,
  PROPERTY,
  settledSync,
  startGoogle,
  type Google,
} from '../features/searchAnalytics/world.ts';

/**
 * Decay findings in Chromium: the project overview lists the decaying articles worst first with
 * their evidence, the article page shows its finding beside the search chart, and a search query
 * with markup and a newline stays text.
 */
const DAY_MS = 86_400_000;
const nowMs = Math.floor(Date.now() / DAY_MS) * DAY_MS + 10 * 3_600_000;
const clock = manualClock(new Date(nowMs).toISOString());
const end = new Date(nowMs - 3 * DAY_MS).toISOString().slice(0, 10);
const publishedAt = new Date(nowMs - 250 * DAY_MS).toISOString();
const SHOWN = ['below-best-1', 'query-lost-4', 'steady-1'];

let inkstream: TestInkstream;
let google: Google;
let browser: Browser;
let projectId: string;
const ids = new Map<string, string>();

beforeAll(async () => {
  if (!hasChromium) return;
  google = await startGoogle();
  inkstream = await startInkstream({ env: googleEnv(google), clock });
  await stopPipeline(inkstream);
  const api = inkstream.api();
  projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' }))
    .body.project.id;
  for (const slug of SHOWN) {
    const entry = LABELLED_SERIES.find((series) => series.slug === slug)!;
    const topicId = (await api.post(`/projects/${projectId}/topics`, { title: entry.label })).body
      .topic.id;
    const articleId = (await api.post(`/topics/${topicId}/write`)).body.article.id;
    clock.set(publishedAt);
    await advanceArticle(inkstream.platform, accountIdForName('test'), articleId, 'merged', {
      title: entry.label,
      path: `content/${slug}.mdx`,
    });
    clock.set(new Date(nowMs).toISOString());
    ids.set(slug, articleId);
    google.addRows(PROPERTY, rowsOf(entry, { end, publishedAt }));
  }
  expect((await api.put(integrationPath(projectId), connectBody({ backfill: true }))).status).toBe(
    200,
  );
  await settledSync(api, projectId, eventually);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
  await google?.close();
});

test.skipIf(!hasChromium)(
  'the overview lists decaying articles worst first; a hostile query stays text on the page and in the API',
  { timeout: 120_000 },
  async () => {
    const listed = await inkstream.api().get(`/projects/${projectId}/decay`);
    const lost = listed.body.findings.find(
      (finding: any) => finding.articleId === ids.get('query-lost-4'),
    );
    expect(lost.signals[0].queries[0].query).toBe(HOSTILE_QUERY);

    const page = await signedInPage(browser, inkstream, {
      email: 'analyst@test.example',
      role: 'viewer',
    });
    await page.goto(`${inkstream.url}/projects/${projectId}`);
    const decay = page.getByRole('region', { name: 'Decay' });
    const table = decay.getByRole('table', { name: 'Decaying articles, worst first' });
    await table.waitFor({ timeout: 30_000 });
    const rows = table.getByRole('row');
    expect(await rows.count()).toBe(3); // the header, then the two decaying articles
    expect(await rows.nth(1).textContent()).toContain('Decaying (high)');
    expect(await rows.nth(1).textContent()).toContain('below the best 28 days since publication');
    const hostileRow = rows.nth(2);
    expect(await hostileRow.textContent()).toContain('<img src=x onerror="alert(1)">');
    expect(await hostileRow.locator('img').count()).toBe(0);
    expect(await decay.textContent()).toContain('0 better, 0 unchanged, 0 worse');
    await checkPage(page, 'decay-overview');

    await hostileRow.getByRole('link').click();
    const panel = page.getByRole('region', { name: 'Decay' });
    await panel.getByText('No clicks any more').waitFor({ timeout: 30_000 });
    expect(await panel.locator('q').first().textContent()).toBe(HOSTILE_QUERY);
    await page.getByRole('region', { name: 'Search performance' }).waitFor();
    await checkPage(page, 'decay-article');
  },
);
