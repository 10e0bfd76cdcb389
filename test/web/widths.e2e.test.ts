import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { hasChromium, launchChromium, SCREENSHOTS, signedInPage } from '../support/browser.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { startTestSite, type TestSite } from '../support/testSite.ts';

/**
 * Every page of the application at a phone and a desktop size: nothing wider than the window
 * (tables scroll inside their own box), no serious or critical accessibility finding, and a
 * screenshot of each in test-screenshots/widths/ (git-ignored).
 */
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

/** The axe rules whose outcome depends on the width: colours over what a line now wraps onto, scrolling boxes, tap targets. */
const LAYOUT_RULES = [
  'color-contrast',
  'scrollable-region-focusable',
  'target-size',
  'meta-viewport',
];

let inkstream: TestInkstream;
let site: TestSite;
let browser: Browser;
let paths: Record<string, string> = {};

beforeAll(async () => {
  if (!hasChromium) return;
  site = await startTestSite();
  inkstream = await startInkstream();
  browser = await launchChromium();
  const api = inkstream.api();
  const projectId = (
    await api.post('/projects', { name: 'Crumb & Co. bakery software', websiteUrl: site.origin })
  ).body.project.id as string;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status !== 'pending',
    { what: 'the crawl', timeoutMs: 30_000 },
  );
  // Nothing listens there: the delivery log gets failed attempts with long error texts.
  const endpoint = await api.post('/webhooks', { url: 'https://127.0.0.1:9/inkstream-hook' });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const endpointId = endpoint.body.webhook.id as string;
  const topic = (
    await api.post(`/projects/${projectId}/topics`, {
      title: 'Planning a bakery’s morning bake with online orders',
      keyword: 'online ordering',
    })
  ).body.topic;
  const articleId = (await api.post(`/topics/${topic.id}/write`)).body.article.id as string;
  await eventually(
    () => api.get(`/articles/${articleId}`),
    (r) => r.body.article.status === 'draft',
    { what: 'the draft', timeoutMs: 30_000 },
  );
  paths = {
    projects: '/projects',
    overview: `/projects/${projectId}`,
    topics: `/projects/${projectId}/topics`,
    articles: `/projects/${projectId}/articles`,
    article: `/projects/${projectId}/articles/${articleId}`,
    history: `/projects/${projectId}/articles/${articleId}/history`,
    brand: `/projects/${projectId}/brand`,
    settings: `/projects/${projectId}/settings`,
    integrations: `/projects/${projectId}/integrations`,
    keys: '/keys',
    webhooks: '/webhooks',
    endpoint: `/webhooks/${endpointId}`,
    account: '/account',
    members: '/members',
    sessions: '/sessions',
  };
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
  await site?.close();
});

/** The page's heading is up and nothing says it is still loading (the live stream never goes idle). */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  await expect.poll(() => page.getByText(/^Loading…$/).count()).toBe(0);
}

/**
 * How wide the page is against the window, and the outermost elements that reach past its edge or
 * whose text runs out of them (not those inside a box that scrolls). Runs in the page.
 */
const MEASURE = `(() => {
  const doc = document.scrollingElement || document.documentElement;
  const clipped = (element) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement)
      if (getComputedStyle(parent).overflowX !== 'visible') return true;
    return false;
  };
  const name = (element) =>
    element.tagName.toLowerCase() + (element.className ? '.' + String(element.className).split(' ').join('.') : '');
  const past = [...document.body.querySelectorAll('*')]
    .filter((element) =>
      element.getBoundingClientRect().right > window.innerWidth + 0.5 ||
      (element.children.length === 0 && element.clientWidth > 0 &&
        element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX === 'visible'))
    .filter((element) => !clipped(element))
    .slice(0, 5)
    .map((element) => (element.parentElement ? name(element.parentElement) + ' > ' : '') + name(element));
  return { scrollWidth: doc.scrollWidth, innerWidth: window.innerWidth, widest: past.join(', ') };
})()`;
const overflow = (page: Page) =>
  page.evaluate(MEASURE) as Promise<{ scrollWidth: number; innerWidth: number; widest: string }>;

/**
 * axe's serious and critical findings. At the desktop size the other browser tests scan every page
 * in full (checkPage); here the desktop scan keeps to the rules a layout can break, which keeps
 * this walk inside its time budget (docs/application.md).
 */
async function serious(page: Page, full: boolean): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (!full) builder.withRules(LAYOUT_RULES);
  const results = await builder
    .options({ resultTypes: ['violations'] })
    .setLegacyMode()
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

test.skipIf(!hasChromium)(
  'every page fits a 390 px phone and a 1280 px desktop without sideways scrolling, and axe finds nothing serious at either',
  { timeout: 240_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'owner@test.example',
      role: 'owner',
    });
    const dir = join(SCREENSHOTS, 'widths');
    mkdirSync(dir, { recursive: true });
    const problems: string[] = [];
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const [name, path] of Object.entries(paths)) {
        await page.goto(`${inkstream.url}${path}`);
        await settled(page);
        const { scrollWidth, innerWidth, widest } = await overflow(page);
        if (scrollWidth > innerWidth)
          problems.push(`${name} at ${size.width}px is ${scrollWidth}px wide (${widest})`);
        for (const finding of await serious(page, size.width < 600))
          problems.push(`${name} at ${size.width}px: ${finding}`);
        await page.screenshot({
          path: join(dir, `${name}-${size.width}x${size.height}.png`),
          fullPage: true,
        });
      }
    }
    expect(problems).toEqual([]);
    // The history page is titled with the article's title, not its id.
    await page.goto(`${inkstream.url}${paths.history}`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toMatch(/^History of “.+”$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).not.toContain('art_');
  },
);

test.skipIf(!hasChromium)('the favicon is served, not a 404', async () => {
  const response = await fetch(`${inkstream.url}/favicon.ico`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^image\//);
  const page = await signedInPage(browser, inkstream, {
    email: 'viewer@test.example',
    role: 'viewer',
  });
  const missing: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  await page.goto(`${inkstream.url}/projects`);
  await settled(page);
  expect(missing).toEqual([]);
});

test.skipIf(!hasChromium)(
  'approving without a repository: the button says why it is disabled and the note leads to the Integrations tab',
  { timeout: 60_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'editor@test.example',
      role: 'editor',
    });
    await page.goto(`${inkstream.url}${paths.article}`);
    await settled(page);
    const actions = page.getByRole('region', { name: 'Actions' });
    const approve = actions.getByRole('button', { name: 'Approve' });
    await expect.poll(() => approve.isDisabled()).toBe(true);
    expect(await approve.getAttribute('title')).toBe(
      'Approve is disabled: no GitHub repository is connected to publish to',
    );
    const note = actions.getByText(/No repository to publish to yet/);
    expect(await approve.getAttribute('aria-describedby')).toBe(await note.getAttribute('id'));
    expect(await actions.textContent()).not.toMatch(/PUT \/api\/v1/);
    await actions.getByRole('link', { name: 'connect one on the Integrations tab' }).click();
    await page.waitForURL(`${inkstream.url}${paths.integrations}`);
    await expect
      .poll(() =>
        page
          .getByRole('navigation', { name: 'Project' })
          .getByRole('link', { name: 'Integrations' })
          .getAttribute('aria-current'),
      )
      .toBe('page');
  },
);

test.skipIf(!hasChromium)(
  "at 1280 px the articles board's nine columns stay in one row that scrolls inside its own box; a phone stacks them",
  { timeout: 60_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'board-reader@test.example',
      role: 'viewer',
    });
    const layout = () =>
      page.evaluate(`(() => {
        const board = document.querySelector('.board');
        const tops = [...board.querySelectorAll('.board-column')].map((column) =>
          Math.round(column.getBoundingClientRect().top),
        );
        const doc = document.scrollingElement || document.documentElement;
        return {
          columns: tops.length,
          rows: new Set(tops).size,
          scrolls: board.scrollWidth > board.clientWidth,
          pageWidth: doc.scrollWidth,
        };
      })()`) as Promise<{ columns: number; rows: number; scrolls: boolean; pageWidth: number }>;

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${inkstream.url}${paths.articles}`);
    await settled(page);
    const desktop = await layout();
    expect(desktop).toMatchObject({ columns: 9, rows: 1, scrolls: true });
    expect(desktop.pageWidth).toBeLessThanOrEqual(1280);
    // The box scrolls from the keyboard: it takes focus, and the arrow key moves it.
    const board = page.getByRole('region', { name: 'Articles by state' });
    await board.focus();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() =>
        board.evaluate((element) => (element as unknown as { scrollLeft: number }).scrollLeft),
      )
      .toBeGreaterThan(0);

    await page.setViewportSize({ width: 390, height: 844 });
    const phone = await layout();
    expect(phone).toMatchObject({ columns: 9, rows: 9, scrolls: false });
    expect(phone.pageWidth).toBeLessThanOrEqual(390);
  },
);
