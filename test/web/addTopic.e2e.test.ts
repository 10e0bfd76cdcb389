import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { stopPipeline } from '../support/stopPipeline.ts';

/**
 * The topics board adds a topic by hand (POST /projects/:id/topics) and shows each card's brief,
 * as text; the server's refusal shows on the field it names.
 */
const SLOW = { timeout: 30_000 };
const HOSTILE_BRIEF = 'Open with <img src=x onerror="window.pwned=1">\nthen the prices.';
let inkstream: TestInkstream;
let browser: Browser;
let projectId: string;

beforeAll(async () => {
  if (!hasChromium) return;
  inkstream = await startInkstream();
  await stopPipeline(inkstream);
  projectId = (
    await inkstream.api().post('/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' })
  ).body.project.id;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
});

const topicsNow = async () =>
  (await inkstream.api().get(`/projects/${projectId}/topics?status=approved`)).body.topics as {
    title: string;
    keyword: string | null;
    brief: string | null;
  }[];

test.skipIf(!hasChromium)(
  "the server's refusals show on their fields and add nothing; a topic added by hand shows its brief as text",
  { timeout: 120_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'editor@test.example',
      role: 'editor',
    });
    await page.goto(`${inkstream.url}/projects/${projectId}/topics`);
    await page.getByText('Add a topic by hand').click();
    const form = page.getByRole('form', { name: 'Add a topic' });
    const title = form.getByLabel('Title');
    const keyword = form.getByLabel('Keyword (optional)');
    const brief = form.getByLabel('Brief (optional)');

    // Blank once trimmed: the browser lets it through, the server refuses it on the title.
    await title.fill('   ');
    await form.getByRole('button', { name: 'Add the topic' }).click();
    await form.getByRole('alert').waitFor(SLOW);
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByRole('alert').count()).toBe(1);
    expect(await title.getAttribute('aria-describedby')).toBe(
      await form.getByRole('alert').getAttribute('id'),
    );

    // A keyword of spaces: refused on the keyword, the title's problem gone.
    await title.fill('Wholesale pricing for cafes');
    await keyword.fill('   ');
    await form.getByRole('button', { name: 'Add the topic' }).click();
    await expect.poll(() => keyword.getAttribute('aria-invalid'), SLOW).toBe('true');
    expect(await title.getAttribute('aria-invalid')).toBeNull();
    expect(await topicsNow()).toEqual([]);

    await keyword.fill('wholesale bread pricing');
    await brief.fill(HOSTILE_BRIEF);
    await form.getByRole('button', { name: 'Add the topic' }).click();
    const card = page.getByRole('article', { name: 'Wholesale pricing for cafes' });
    await card.waitFor(SLOW);
    expect(await form.getByRole('alert').count()).toBe(0);
    expect(await title.inputValue()).toBe('');
    expect(await topicsNow()).toMatchObject([
      {
        title: 'Wholesale pricing for cafes',
        keyword: 'wholesale bread pricing',
        brief: HOSTILE_BRIEF,
      },
    ]);
    const shown = card.locator('.card-brief');
    expect(await shown.textContent()).toBe(`Brief: ${HOSTILE_BRIEF}`);
    expect(await shown.innerText()).toContain(HOSTILE_BRIEF); // its line break kept
    expect(await card.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    await checkPage(page, 'topics-added-by-hand');
  },
);

test.skipIf(!hasChromium)(
  'a viewer sees the brief but no form to add a topic',
  { timeout: 120_000 },
  async () => {
    await inkstream.api().post(`/projects/${projectId}/topics`, {
      title: 'Seasonal menus that sell',
      brief: 'Autumn first.',
    });
    const page = await signedInPage(browser, inkstream, {
      email: 'viewer@test.example',
      role: 'viewer',
    });
    await page.goto(`${inkstream.url}/projects/${projectId}/topics`);
    const card = page.getByRole('article', { name: 'Seasonal menus that sell' });
    await card.waitFor(SLOW);
    expect(await card.textContent()).toContain('Autumn first.');
    expect(await page.getByText('Add a topic by hand').count()).toBe(0);
  },
);
