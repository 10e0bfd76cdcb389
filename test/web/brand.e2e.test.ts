import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { contrastRatio, coverTextColour, formatRatio } from '../../web/src/brand/contrast.ts';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { eventually } from '../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { startTestSite, type TestSite } from '../support/testSite.ts';
import { defaultSitePages } from '../support/testSitePages.ts';

/** A proof point whose sentence carries markup as text: the crawl keeps it as text, the page must show it as text. */
const HOSTILE = '<img src=x onerror="window.pwned=1">';
let teamSize = '40';
let site: TestSite;
let inkstream: TestInkstream;
let browser: Browser;
let projectId: string;

/** The browser's globals, typed for the page.evaluate callbacks (the test project has no DOM lib). */
type InPage = {
  pwned?: number;
  getComputedStyle(element: unknown): { backgroundColor: string };
  document: {
    querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }>;
  };
};

beforeAll(async () => {
  if (!hasChromium) return;
  const about = (defaultSitePages['/about'] as string).replace(
    '</h1>',
    `</h1><p>Trusted by 900+ bakers ${HOSTILE.replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')} in 3 countries.</p>`,
  );
  site = await startTestSite({
    pages: {
      '/about': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(about.replace('team of 40', `team of ${teamSize}`));
      },
    },
  });
  inkstream = await startInkstream();
  browser = await launchChromium();
  projectId = (await inkstream.api().post('/projects', { name: 'Crumb', websiteUrl: site.origin }))
    .body.project.id;
  await eventually(
    () => inkstream.api().get(`/projects/${projectId}/brand`),
    (read) => read.body.brand.crawlStatus === 'done',
    { what: 'the first crawl' },
  );
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
  await site?.close();
});

const brandNow = async () => (await inkstream.api().get(`/projects/${projectId}/brand`)).body.brand;
const projectNow = async () => (await inkstream.api().get(`/projects/${projectId}`)).body.project;

async function openBrand(page: Page) {
  await page.goto(`${inkstream.url}/projects/${projectId}/brand`);
  await page.getByRole('heading', { name: 'Company facts' }).waitFor();
}

test.skipIf(!hasChromium)(
  'the brand page shows facts with their source and sentence, swatches with contrast figures and the sample cover; crawled markup stays text',
  { timeout: 120_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'editor@test.example',
      role: 'editor',
    });
    await openBrand(page);
    expect(
      await page
        .getByRole('navigation', { name: 'Project' })
        .getByRole('link', { name: 'Brand' })
        .getAttribute('aria-current'),
    ).toBe('page');

    const facts = page.getByRole('form', { name: 'Company facts' });
    const aboutLink = facts
      .getByRole('link', { name: `${new URL(site.origin).host}/about` })
      .first();
    expect(await aboutLink.getAttribute('href')).toBe(site.url('/about'));
    expect(await aboutLink.getAttribute('rel')).toBe('noopener noreferrer');
    // The founding sentence is the source of two facts (the year and the place).
    await expect
      .poll(() =>
        facts
          .getByText(
            'Crumb & Co. was founded in 2011 in Portland by two bakers who were tired of paper order books.',
          )
          .count(),
      )
      .toBe(2);

    // The crawled markup is on the page as the characters it was, and nothing ran.
    await expect.poll(() => page.getByText(HOSTILE, { exact: false }).count()).toBeGreaterThan(0);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as InPage).pwned)).toBeUndefined();

    const { palette } = await brandNow();
    const colours = page.getByRole('table', { name: 'Colours' });
    const primaryRow = colours.getByRole('row').filter({ hasText: 'Primary' }).first();
    expect(await primaryRow.getByRole('cell').nth(1).textContent()).toBe(palette.primary);
    expect(await primaryRow.getByRole('cell').nth(3).textContent()).toContain(
      formatRatio(contrastRatio(palette.primary, '#ffffff')!),
    );
    const titleRow = page.getByRole('row').filter({ hasText: 'Title text' });
    expect(await titleRow.textContent()).toContain(
      formatRatio(
        contrastRatio(coverTextColour(palette.text, palette.background), palette.background)!,
      ),
    );
    // The swatch is painted in the colour (set through the CSSOM, which the page's CSP allows).
    const swatch = primaryRow.locator('span.swatch');
    const [r, g, b] = [1, 3, 5].map((at) => parseInt(palette.primary.slice(at, at + 2), 16));
    expect(
      await swatch.evaluate(
        (element) => (globalThis as unknown as InPage).getComputedStyle(element).backgroundColor,
      ),
    ).toBe(`rgb(${r}, ${g}, ${b})`);

    const cover = page.getByRole('img', { name: /sample cover/ });
    await expect
      .poll(() =>
        cover.evaluate(
          (img) =>
            (img as unknown as { complete: boolean; naturalWidth: number }).complete &&
            (img as unknown as { naturalWidth: number }).naturalWidth,
        ),
      )
      .toBe(1200);
    await checkPage(page, 'brand');
  },
);

test.skipIf(!hasChromium)(
  'an edited voice is saved, and after a re-crawl the page says what changed and keeps the edit',
  { timeout: 120_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'editor2@test.example',
      role: 'editor',
    });
    await openBrand(page);
    const voice = page.getByRole('form', { name: 'Voice', exact: true });
    await voice.getByLabel('Voice summary').fill('Short, warm sentences for busy bakers.');
    await voice.getByRole('button', { name: 'Save voice', exact: true }).click();
    await page.getByText('Voice saved.').waitFor();
    expect((await brandNow()).voice.summary).toBe('Short, warm sentences for busy bakers.');
    await expect
      .poll(() => page.getByRole('heading', { name: /Voice edited here/ }).count())
      .toBe(1);

    teamSize = '55';
    await page.getByRole('button', { name: 'Re-crawl the site' }).click();
    const changes = page.getByRole('region', { name: 'What the last crawl changed' });
    await changes.getByText(/Last re-crawl, .*changed Company facts/).waitFor({ timeout: 60_000 });
    teamSize = '40';
    expect(await changes.textContent()).toContain('Kept as you edited them: Voice.');
    expect(await changes.getByRole('listitem').allTextContents()).toEqual(
      expect.arrayContaining(['added: team: 55', 'removed: team: 40']),
    );
    expect(
      await page
        .getByRole('form', { name: 'Voice', exact: true })
        .getByLabel('Voice summary')
        .inputValue(),
    ).toBe('Short, warm sentences for busy bakers.');
  },
);

test.skipIf(!hasChromium)(
  'a palette entry that is not a #rrggbb colour is shown as refused and never applied as CSS',
  { timeout: 90_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'editor3@test.example',
      role: 'editor',
    });
    const hostile = 'red;background:url(//evil.example/x)';
    await page.route(`**/api/v1/projects/${projectId}/brand`, async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.brand.palette.primary = hostile;
      body.brand.palette.colors[0].hex = hostile;
      await route.fulfill({ response, json: body });
    });
    const evil: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('evil.example')) evil.push(request.url());
    });
    await openBrand(page);
    await expect
      .poll(() => page.getByText('not a #rrggbb colour').count())
      .toBeGreaterThanOrEqual(2);
    const styles = await page.evaluate(() =>
      [...(globalThis as unknown as InPage).document.querySelectorAll('[style]')].map(
        (element) => element.getAttribute('style') ?? '',
      ),
    );
    expect(styles.filter((style) => /url\(|evil|red/.test(style))).toEqual([]);
    expect(evil).toEqual([]);
  },
);

test.skipIf(!hasChromium)(
  "settings: the cadence is saved, the project paused and resumed, and a refused model or time zone shows the server's message on its field",
  { timeout: 120_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'editor4@test.example',
      role: 'editor',
    });
    await page.goto(`${inkstream.url}/projects/${projectId}/settings`);
    const cadence = page.getByRole('form', { name: 'Cadence' });
    await cadence.waitFor();
    await cadence.getByLabel('Write articles on a schedule').check();
    await cadence.getByLabel('Articles per week').fill('3');
    await cadence.getByLabel('Friday').check();
    await cadence.getByRole('button', { name: 'Save cadence' }).click();
    await page.getByText('Cadence saved.').waitFor();
    expect((await projectNow()).settings.cadence).toMatchObject({
      enabled: true,
      articlesPerWeek: 3,
      days: ['tue', 'fri'],
    });

    await page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
    await cadence.getByRole('button', { name: 'Save cadence' }).click();
    const timezone = page.getByLabel('Time zone');
    await expect
      .poll(async () =>
        page.locator(`#${await timezone.getAttribute('aria-describedby')}`).textContent(),
      )
      .toContain('IANA time zone');
    expect((await projectNow()).settings.cadence.timezone).toBe('UTC');

    await page.getByRole('button', { name: 'Pause the project' }).click();
    await page.getByRole('button', { name: 'Resume the project' }).waitFor();
    expect((await projectNow()).paused).toBe(true);
    await page.getByRole('button', { name: 'Resume the project' }).click();
    await page.getByRole('button', { name: 'Pause the project' }).waitFor();
    expect((await projectNow()).paused).toBe(false);

    const model = page.getByRole('form', { name: 'Model' });
    await model.getByLabel('Model').fill('o1-pro');
    await model.getByRole('button', { name: 'Save model' }).click();
    await model.locator('#model-error').waitFor();
    expect(await model.locator('#model-error').textContent()).toMatch(
      /settings\.model must be one of "gpt-4o-mini"/,
    );
    expect(await model.getByLabel('Model').getAttribute('aria-invalid')).toBe('true');
    expect((await projectNow()).settings.model).toBeNull();
    await checkPage(page, 'project-settings');
  },
);

test.skipIf(!hasChromium)(
  'a viewer reads both pages and can change nothing',
  { timeout: 120_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'viewer@test.example',
      role: 'viewer',
    });
    await openBrand(page);
    expect(
      await page
        .getByRole('form', { name: 'Voice', exact: true })
        .getByLabel('Voice summary')
        .inputValue(),
    ).not.toBe('');
    for (const name of [
      'Save voice',
      'Save facts',
      'Save cover style',
      'Re-crawl the site',
      'Save voice traits',
      'Remove fact 1',
      'Add a fact',
    ]) {
      expect(await page.getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
    }
    expect(await page.getByLabel('Fact 1', { exact: true }).isDisabled()).toBe(true);
    await checkPage(page, 'brand-viewer');

    await page
      .getByRole('navigation', { name: 'Project' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByRole('form', { name: 'Cadence' }).waitFor();
    for (const name of ['Save model', 'Save cadence', 'Save covers', 'Pause the project']) {
      expect(await page.getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
    }
    expect(await page.getByRole('form', { name: 'Model' }).getByLabel('Model').isDisabled()).toBe(
      true,
    );
  },
);
