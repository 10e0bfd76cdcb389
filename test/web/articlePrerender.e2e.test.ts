import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import { advanceArticle } from '../support/articleLife.ts';
import { eventually } from '../support/eventually.ts';
import { hasChromium, launchChromium } from '../support/browser.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { signedInMember } from '../support/signedInMember.ts';
import { stopPipeline } from '../support/stopPipeline.ts';

/**
 * The article page's first response already holds the article (docs/workspace.md, "How the article
 * page loads"): without JavaScript the text is there; with it, the app's page replaces it with its
 * own body, never shows "Loading…" over it, does not double the text and does not reflow it.
 */
let inkstream: TestInkstream;
let browser: Browser;
let articleUrl: string;
const LAST = 'The closing paragraph of the prerendered guide.';
const MDX = [
  '---',
  'title: Proofing guide',
  '---',
  '',
  '# Why proof',
  '',
  ...Array.from({ length: 8 }, (_, n) => [
    `Paragraph ${n + 1}: ${'proofing lets the dough rise. '.repeat(30)}`,
    '',
  ]).flat(),
  '| step | minutes |',
  '| :--- | ---: |',
  '| bulk | 240 |',
  '| final | 60 |',
  '',
  '- [a link](https://acme.example/proof)',
  '- `code` and **bold**',
  '',
  '```',
  'const oven = 250;',
  '```',
  '',
  LAST,
  '',
].join('\n');

beforeAll(async () => {
  if (!hasChromium) return;
  inkstream = await startInkstream();
  await stopPipeline(inkstream);
  const projectId = (
    await inkstream.api().post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' })
  ).body.project.id;
  const topicId = (
    await inkstream.api().post(`/projects/${projectId}/topics`, { title: 'Proofing guide' })
  ).body.topic.id;
  const articleId = (await inkstream.api().post(`/topics/${topicId}/write`)).body.article.id;
  await advanceArticle(inkstream.platform, accountIdForName('test'), articleId, 'draft', {
    mdx: MDX,
    title: 'Proofing guide',
    wordCount: 200,
  });
  await eventually(
    async () => (await inkstream.api().get(`/articles/${articleId}`)).body.article.status,
    (status) => status === 'draft',
    { what: 'the draft' },
  );
  articleUrl = `${inkstream.url}/projects/${projectId}/articles/${articleId}`;
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
});

async function contextOf(
  email: string,
  account: string,
  javaScriptEnabled: boolean,
): Promise<BrowserContext> {
  const session = await signedInMember(inkstream, { email, role: 'editor', account });
  const [name, value] = session.cookie!.split(/=(.*)/s, 2);
  const context = await browser.newContext({
    javaScriptEnabled,
    viewport: { width: 1280, height: 800 },
  });
  await context.addCookies([{ name, value, url: inkstream.url, httpOnly: true, sameSite: 'Lax' }]);
  return context;
}

// Source for the page (the root typecheck has no DOM library): whether "Loading…" or two article bodies were ever in the document.
const WATCH_FOR_LOADING_AND_DOUBLES = `
  const seen = window.__seen = { loading: false, bothBodies: false };
  new MutationObserver(() => {
    const text = document.body ? document.body.textContent : '';
    if (text.includes('Loading…') || text.includes('Loading the article…')) seen.loading = true;
    if (document.querySelectorAll('[aria-label="Article text"]').length > 1) seen.bothBodies = true;
  }).observe(document, { childList: true, subtree: true, characterData: true });`;
const TOP_OF_FIRST_BLOCK = (within: string) =>
  `document.querySelector(${JSON.stringify(`${within} .article-body > *`)}).getBoundingClientRect().top`;
const geometry = (selector: string) =>
  `(() => { const box = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { width: box.width, height: box.height }; })()`;

test.skipIf(!hasChromium)(
  'with JavaScript off, a member reads the article from the first response; a member of another account gets nothing of it',
  { timeout: 120_000 },
  async () => {
    const reader = await contextOf('no-script@test.example', 'test', false);
    const page = await reader.newPage();
    await page.goto(articleUrl);
    expect(await page.getByRole('heading', { level: 1, name: 'Proofing guide' }).count()).toBe(1);
    expect(
      await page
        .getByRole('article', { name: 'Article text' })
        .getByRole('heading', { level: 2, name: 'Why proof' })
        .count(),
    ).toBe(1);
    expect(await page.getByText(LAST).isVisible()).toBe(true);
    expect(await page.getByRole('cell', { name: '240' }).count()).toBe(1);
    await reader.close();

    await inkstream.newKey('globex'); // the other account
    const stranger = await contextOf('no-script@globex.example', 'globex', false);
    const theirs = await stranger.newPage();
    await theirs.goto(articleUrl);
    expect(await theirs.locator('body').innerText()).toBe('');
    await stranger.close();
  },
);

test.skipIf(!hasChromium)(
  'with JavaScript on, the page takes over: no "Loading…" over the article, the text once, in the same box, and the page interactive',
  { timeout: 120_000 },
  async () => {
    const still = await contextOf('measure@test.example', 'test', false);
    const staticPage = await still.newPage();
    await staticPage.goto(articleUrl);
    const prerendered = await staticPage.evaluate(geometry('#prerendered-article .article-body'));
    const firstBlockTop = (await staticPage.evaluate(
      TOP_OF_FIRST_BLOCK('#prerendered-article'),
    )) as number;
    await still.close();

    const context = await contextOf('live@test.example', 'test', true);
    await context.addInitScript({ content: WATCH_FOR_LOADING_AND_DOUBLES });
    const page = await context.newPage();
    await page.goto(articleUrl);
    await page.getByRole('region', { name: 'Actions' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('#prerendered-article').count()).toBe(0);
    expect(await page.getByText(LAST).count()).toBe(1);
    expect(await page.getByRole('article', { name: 'Article text' }).count()).toBe(1);
    expect(await page.evaluate('window.__seen')).toEqual({ loading: false, bothBodies: false });
    expect(await page.evaluate(geometry('[aria-label="Article text"]'))).toEqual(prerendered);
    // The bar, tabs, status and actions appeared above the text without moving it: the window was scrolled by as much.
    expect(
      Math.abs(((await page.evaluate(TOP_OF_FIRST_BLOCK('#root'))) as number) - firstBlockTop),
    ).toBeLessThan(1);
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(100);
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(1);
    await context.close();
  },
);
