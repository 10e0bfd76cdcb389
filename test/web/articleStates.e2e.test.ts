import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import { ARTICLE_STATUSES } from '../../src/domain/articles/article.ts';
import { ARTICLE_STATES } from '../../web/src/articleStates.ts';
import { advanceArticle } from '../support/articleLife.ts';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { stopPipeline } from '../support/stopPipeline.ts';

/** One word a state: the article page says what the board's column and the overview say, never `pr_open`. */
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

async function articleAt(status: 'pr_open' | 'merged', title: string): Promise<string> {
  const api = inkstream.api();
  const topicId = (await api.post(`/projects/${projectId}/topics`, { title })).body.topic.id;
  const articleId = (await api.post(`/topics/${topicId}/write`)).body.article.id;
  await advanceArticle(inkstream.platform, accountIdForName('test'), articleId, status, {
    title,
    path: `content/${status}.mdx`,
  });
  return articleId;
}

test.skipIf(!hasChromium)(
  "the article page names its state with the board's word, in its status line and in sentences",
  { timeout: 120_000 },
  async () => {
    const open = await articleAt('pr_open', 'Wholesale pricing for cafes');
    const merged = await articleAt('merged', 'Seasonal menus that sell');
    const page = await signedInPage(browser, inkstream, {
      email: 'editor@test.example',
      role: 'editor',
    });
    await page.goto(`${inkstream.url}/projects/${projectId}/articles/${open}`);
    const status = page.locator('strong.status');
    await status.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toBe('PR open');
    expect(await page.locator('main').textContent()).not.toContain('pr_open');
    await checkPage(page, 'article-state-word');

    await page.goto(`${inkstream.url}/projects/${projectId}/articles/${merged}`);
    await page.getByText('this article is merged.').waitFor({ timeout: 30_000 });
    expect(await page.locator('strong.status').textContent()).toBe('Merged');

    // The board's column for the same article uses the same word.
    await page.goto(`${inkstream.url}/projects/${projectId}/articles`);
    const column = page.getByRole('heading', { level: 2, name: /^PR open/ });
    await column.waitFor({ timeout: 30_000 });
    // Every state the server knows has its word, in the server's order.
    expect(ARTICLE_STATES.map((state) => state.status)).toEqual([...ARTICLE_STATUSES]);
  },
);
