import matter from 'gray-matter';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import type { ArticleStatus } from '../../src/domain/articles/article.ts';
import { articleStream } from '../../src/domain/articles/decide.ts';
import type { QualityCheck } from '../../src/domain/articles/quality.ts';
import { advanceArticle, completeRevision, type ArticleContent } from '../support/articleLife.ts';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { startHttpServer, type LocalServer } from '../support/httpServer.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { signedInMember } from '../support/signedInMember.ts';
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
import { eventually } from '../support/eventually.ts';

/**
 * The article page and the audit view in Chromium. The pipeline is stopped: the test records the
 * pipeline's own steps (draft, pull request, the revision a person asks for) with the text it needs.
 */
let inkstream: TestInkstream;
let browser: Browser;
let elsewhere: LocalServer;
let google: Google;
let projectId: string;
const requestsElsewhere: string[] = [];
const account = accountIdForName('test');

beforeAll(async () => {
  if (!hasChromium) return;
  google = await startGoogle();
  inkstream = await startInkstream({ env: googleEnv(google) });
  await stopPipeline(inkstream);
  elsewhere = await startHttpServer((req, res) => {
    requestsElsewhere.push(req.url ?? '');
    res.end('x');
  });
  projectId = (
    await inkstream.api().post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' })
  ).body.project.id;
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await elsewhere?.close();
  await inkstream?.close();
  await google?.close();
});

async function articleIn(status: ArticleStatus, content: ArticleContent): Promise<string> {
  const {
    body: { topic },
  } = await inkstream.api().post(`/projects/${projectId}/topics`, {
    title: content.title ?? 'An article',
    keyword: 'sourdough',
  });
  const {
    body: { article },
  } = await inkstream.api().post(`/topics/${topic.id}/write`);
  await advanceArticle(inkstream.platform, account, article.id, status, content);
  return article.id;
}

const articlePath = (id: string) => `${inkstream.url}/projects/${projectId}/articles/${id}`;

async function openArticle(page: Page, id: string, title: string): Promise<void> {
  await page.goto(articlePath(id));
  await page
    .getByRole('heading', { level: 1, name: title, exact: true })
    .waitFor({ timeout: 30_000 });
  // The server's prerendered title and body show first; the page is the app's once its actions are there.
  await page.getByRole('region', { name: 'Actions' }).waitFor({ timeout: 30_000 });
}

test.skipIf(!hasChromium)(
  'an article whose MDX carries script, handlers, javascript: links, expressions, ESM and JSX renders inert, as text',
  { timeout: 120_000 },
  async () => {
    const other = elsewhere.origin;
    const mdx = [
      '---',
      'title: Hostile',
      '---',
      '',
      `import Evil from '${other}/esm.js'`,
      `export const leak = fetch('${other}/export')`,
      '',
      '# Hostile heading',
      '',
      `<script>window.__pwned = 1; fetch('${other}/script')</script>`,
      '',
      `<img src="${other}/img.png" onerror="window.__pwned = 2; alert(2)">`,
      '',
      `[click me](javascript:alert(3)) and [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCg0KTwvc2NyaXB0Pg==) and [plain http](${other}/page)`,
      '',
      `![tracker](${other}/tracker.png)`,
      '',
      'Inline {alert(5)} expression and <Chart onLoad={() => alert(6)} /> component.',
      '',
      `<iframe src="${other}/frame"></iframe>`,
      '',
    ].join('\n');
    const id = await articleIn('pr_open', { mdx, title: 'Hostile', prUrl: 'javascript:alert(7)' });
    const page = await signedInPage(browser, inkstream, {
      email: 'reader@test.example',
      role: 'owner',
    });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => dialogs.push(dialog.message()));
    await openArticle(page, id, 'Hostile');

    const body = page.getByRole('article', { name: 'Article text' });
    await expect.poll(() => body.getByRole('heading', { name: 'Hostile heading' }).count()).toBe(1);
    for (const text of [
      `import Evil from '${other}/esm.js'`,
      '<script>window.__pwned = 1;',
      'onerror="window.__pwned = 2; alert(2)"',
      'Inline {alert(5)} expression',
      '<Chart onLoad={() => alert(6)} />',
      '<iframe src=',
    ]) {
      expect(await body.getByText(text, { exact: false }).count(), text).toBeGreaterThan(0);
    }
    expect(await body.locator('script, iframe, img[onerror], [onload], [onerror]').count()).toBe(0);
    expect(await body.getByRole('link', { name: 'click me' }).count()).toBe(0);
    expect(await body.getByRole('link', { name: 'data link' }).count()).toBe(0);
    expect(await body.getByText('click me').count()).toBe(1);
    expect(await body.getByText('[image not shown: tracker]').count()).toBe(1);
    expect(await body.getByRole('link', { name: 'plain http' }).getAttribute('rel')).toBe(
      'noopener noreferrer nofollow',
    );
    expect(await page.getByRole('link', { name: /Pull request/ }).count()).toBe(0); // a javascript: PR URL is no link

    await body.getByText('click me').click();
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(dialogs).toEqual([]);
    expect(requestsElsewhere).toEqual([]);
  },
);

const CLAIM = 'Our bakery has baked since 2016 with the best starter in town.';
const DRAFT = [
  '---',
  'title: Sourdough starter basics',
  'tags: [bread, starter]',
  '---',
  '',
  '# Why a starter',
  '',
  `A starter is flour and water. ${CLAIM} Feed it daily.`,
  '',
  'See [our pricing](https://acme.example/pricing) and [the about page](/about).',
  '',
].join('\n');
const REVISED = DRAFT.replace(
  'A starter is flour and water.',
  'A starter is just flour and water.',
).replace('Feed it daily.', 'Feed it.');

function groundingFailure(mdx: string): QualityCheck[] {
  const start = matter(mdx).content.indexOf(CLAIM);
  return [
    {
      name: 'grounding',
      status: 'fail',
      message:
        '1 of 1 checkable claims have no supporting passage on the site or in the company facts.',
      details: [
        {
          text: CLAIM,
          start,
          end: start + CLAIM.length,
          note: 'Unsupported: the quoted passage is not on https://acme.example/about (checked for 2016).',
          source: {
            url: 'https://acme.example/about',
            passage: 'Acme has baked bread in Leeds since 2018.',
          },
        },
      ],
    },
    {
      name: 'length',
      status: 'warn',
      message: 'The article has 30 words of the 800 asked for.',
      details: [],
    },
  ];
}

test.skipIf(!hasChromium)(
  'the article page renders the draft with its failing sentence marked beside its source, revises it (the landed revision arrives live, without a reload), diffs the versions and shows it as it was; the audit view downloads its history',
  { timeout: 240_000 },
  async () => {
    const id = await articleIn('draft', {
      mdx: DRAFT,
      title: 'Sourdough starter basics',
      wordCount: 30,
      checks: groundingFailure(DRAFT),
    });
    const page = await signedInPage(browser, inkstream, {
      email: 'editor@test.example',
      role: 'editor',
    });
    await openArticle(page, id, 'Sourdough starter basics');

    const body = page.getByRole('article', { name: 'Article text' });
    await expect
      .poll(() => body.getByRole('heading', { level: 2, name: 'Why a starter' }).count())
      .toBe(1);
    expect(await body.locator('mark.finding-fail').textContent()).toBe(CLAIM);
    const checks = page.getByRole('complementary', { name: 'Content checks' });
    expect(await checks.getByText('Acme has baked bread in Leeds since 2018.').count()).toBe(1);
    expect(await checks.getByRole('link', { name: `“${CLAIM}”` }).getAttribute('href')).toBe(
      '#finding-0-0',
    );
    expect(await page.getByRole('row', { name: /tags/ }).textContent()).toContain(
      '["bread","starter"]',
    );
    expect(await page.getByText('Version 1, 30 words.').count()).toBe(1);
    const meta = page.locator('.article-meta');
    for (const href of ['https://acme.example/pricing', '/about'])
      expect(await meta.getByText(href, { exact: true }).count()).toBe(1);
    // No GitHub connection: Approve says why it is disabled and where to connect a repository.
    await expect.poll(() => page.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    expect(
      await page.getByRole('link', { name: 'connect one on the Integrations tab' }).count(),
    ).toBe(1);
    expect(await page.getByRole('button', { name: 'Refresh' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Retry' }).isDisabled()).toBe(true);
    await checkPage(page, 'article-draft');

    await page.getByRole('button', { name: 'Ask for a revision' }).click(); // an empty instruction: the API's message on the field
    await expect.poll(() => page.locator('#instruction-error').count()).toBe(1);
    expect(await page.getByLabel('Revision instruction').getAttribute('aria-invalid')).toBe('true');
    await page
      .getByLabel('Revision instruction')
      .fill('Tighten the intro and drop the feeding advice.');
    await page.getByRole('button', { name: 'Ask for a revision' }).click();
    await expect
      .poll(() => page.getByText('Revising… 1 revision in progress.').count(), { timeout: 20_000 })
      .toBe(1);
    expect(
      await completeRevision(inkstream.platform, account, id, {
        mdx: REVISED,
        summary: 'Tightened the intro.',
      }),
    ).toBe(2);
    await expect
      .poll(() => page.getByText('Last revision (version 2): Tightened the intro.').count(), {
        timeout: 30_000,
      })
      .toBe(1);
    expect(
      await body.getByText('A starter is just flour and water.', { exact: false }).count(),
    ).toBe(1);

    const versions = page.getByRole('region', { name: 'Revision history' });
    await expect
      .poll(() => versions.locator('ins').allTextContents(), { timeout: 20_000 })
      .toContain('just ');
    expect(await page.getByLabel('Compare version').inputValue()).toBe('1');
    expect(await page.getByLabel('with version').inputValue()).toBe('2');
    expect((await versions.locator('del').allTextContents()).join('')).toContain('daily');
    expect(await versions.locator('figure').first().locator('ins').count()).toBe(0);

    await page.getByRole('button', { name: /As it was here: step \d+ \(Drafted\)/ }).click();
    await expect.poll(() => body.getByText('Feed it daily.', { exact: false }).count()).toBe(1);
    expect(
      await page.getByText(/Showing the article as it was at step \d+ \(Drafted,/).count(),
    ).toBe(1);
    await page.getByRole('button', { name: 'Back to the current article' }).click();
    await expect.poll(() => body.getByText('Feed it daily.', { exact: false }).count()).toBe(0);

    await page.getByRole('link', { name: 'Full history and download' }).click();
    await page.waitForURL(`${articlePath(id)}/history`);
    const history = (await inkstream.api().get(`/articles/${id}/history?limit=1000`)).body
      .history as { type: string; eventId: string }[];
    const table = page.getByRole('table', { name: `${history.length} events, oldest first` });
    await expect
      .poll(() => table.getByRole('row').count(), { timeout: 20_000 })
      .toBe(history.length + 1);
    expect(await table.getByRole('row').nth(history.length).textContent()).toContain(
      'Inkstream (test-pipeline)',
    );
    expect(await table.getByText('Tighten the intro and drop the feeding advice.').count()).toBe(1);
    await checkPage(page, 'article-history');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON Lines' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${id}-history.jsonl`);
    const lines = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((entry) => entry.eventId)).toEqual(history.map((entry) => entry.eventId));
  },
);

test.skipIf(!hasChromium)(
  'each action is enabled only in the states that allow it, and acting reloads the page',
  { timeout: 120_000 },
  async () => {
    const failed = await articleIn('failed', { title: 'Failed one' });
    const merged = await articleIn('merged', { title: 'Merged one' });
    const page = await signedInPage(browser, inkstream, {
      email: 'second-editor@test.example',
      role: 'editor',
    });
    const enabled = async () =>
      Object.fromEntries(
        await Promise.all(
          ['Approve', 'Refresh', 'Retry'].map(async (name) => [
            name,
            await page.getByRole('button', { name }).isEnabled(),
          ]),
        ),
      );

    await openArticle(page, merged, 'Merged one');
    expect(await enabled()).toEqual({ Approve: false, Refresh: true, Retry: false });
    const pr = page.getByRole('link', { name: 'Pull request #7' });
    expect(await pr.getAttribute('href')).toBe('https://github.com/acme/site/pull/7');
    expect(await pr.getAttribute('rel')).toBe('noopener noreferrer');

    await openArticle(page, failed, 'Failed one');
    expect(await enabled()).toEqual({ Approve: false, Refresh: false, Retry: true });
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect
      .poll(() => page.locator('.status').textContent(), { timeout: 20_000 })
      .toBe('Researching');
    expect(await enabled()).toEqual({ Approve: false, Refresh: false, Retry: false });
  },
);

test.skipIf(!hasChromium)(
  'a viewer reads the article, its checks and its history, downloads the history, and can act on nothing',
  { timeout: 120_000 },
  async () => {
    const id = await articleIn('draft', {
      mdx: DRAFT,
      title: 'Read only',
      wordCount: 30,
      checks: groundingFailure(DRAFT),
    });
    const page = await signedInPage(browser, inkstream, {
      email: 'viewer@test.example',
      role: 'viewer',
    });
    await openArticle(page, id, 'Read only');
    await expect.poll(() => page.locator('mark.finding-fail').count()).toBe(1);
    for (const name of ['Approve', 'Refresh', 'Retry', 'Ask for a revision'])
      expect(await page.getByRole('button', { name }).isDisabled(), name).toBe(true);
    expect(await page.getByLabel('Revision instruction').isDisabled()).toBe(true);
    expect(await page.getByText('Your role is viewer').count()).toBe(1);
    await expect
      .poll(() => page.getByRole('button', { name: /As it was here: step/ }).count())
      .toBeGreaterThan(0);
    await checkPage(page, 'article-viewer');

    await page.goto(`${articlePath(id)}/history`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON Lines' }).click(),
    ]);
    expect(readFileSync(await download.path(), 'utf8').split('\n')[0]).toContain(
      '"type":"ArticleQueued"',
    );
  },
);

test.skipIf(!hasChromium)(
  'a published article of a connected project shows its search figures over time as a chart and a table',
  { timeout: 120_000 },
  async () => {
    const crumb = (
      await inkstream
        .api()
        .post('/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' })
    ).body.project.id;
    const {
      body: { topic },
    } = await inkstream.api().post(`/projects/${crumb}/topics`, { title: 'Crumb article' });
    const {
      body: { article },
    } = await inkstream.api().post(`/topics/${topic.id}/write`);
    await advanceArticle(inkstream.platform, account, article.id, 'merged', {
      title: 'Crumb article',
    }); // published as /blog/hello
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    google.addRows(PROPERTY, [
      {
        date: day(10),
        page: 'https://crumb.example/blog/hello',
        query: 'crumb',
        clicks: 7,
        impressions: 140,
        position: 4,
      },
    ]);
    expect((await inkstream.api().put(integrationPath(crumb), connectBody())).status).toBe(200);
    await settledSync(inkstream.api(), crumb, eventually);

    const page = await signedInPage(browser, inkstream, {
      email: 'analyst@test.example',
      role: 'viewer',
    });
    await page.goto(`${inkstream.url}/projects/${crumb}/articles/${article.id}`);
    const search = page.getByRole('region', { name: 'Search performance' });
    await expect.poll(() => search.locator('.chart canvas').count(), { timeout: 30_000 }).toBe(2);
    expect(await search.getByRole('figure').first().textContent()).toContain(
      'Clicks and impressions',
    );
    await search.getByText('The figures as a table').click();
    const row = search
      .getByRole('table', { name: '28-day totals at each sync' })
      .getByRole('row')
      .nth(1);
    expect(await row.textContent()).toBe(
      `${(await inkstream.api().get(`/articles/${article.id}/search-metrics`)).body.searchMetrics.points[0].periodEnd}71405.0 %4.0`,
    );
    await checkPage(page, 'article-search');
  },
);

test.skipIf(!hasChromium)(
  'opened at its address signed out, the article shows after sign-in (its read at start, refused then, is asked again); opened signed in, it is read once',
  { timeout: 120_000 },
  async () => {
    const id = await articleIn('draft', {
      mdx: '---\ntitle: Opened cold\n---\n\nThe first paragraph of the cold open.\n',
      title: 'Opened cold',
    });
    await signedInMember(inkstream, { email: 'cold-open@test.example', role: 'editor' });
    const stranger = await browser.newPage();
    await stranger.goto(articlePath(id));
    await stranger.waitForURL(/\/sign-in\?next=/);
    await stranger.getByLabel('Email').fill('cold-open@test.example');
    await stranger.getByLabel('Password').fill('plum-orchard-lantern-42');
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await stranger
      .getByRole('heading', { level: 1, name: 'Opened cold', exact: true })
      .waitFor({ timeout: 30_000 });
    await expect
      .poll(() =>
        stranger
          .getByRole('article', { name: 'Article text' })
          .getByText('The first paragraph of the cold open.')
          .count(),
      )
      .toBe(1);
    expect(await stranger.getByRole('alert').count()).toBe(0);

    const page = await signedInPage(browser, inkstream, {
      email: 'cold-reader@test.example',
      role: 'viewer',
    });
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === `/api/v1/articles/${id}`) reads.push(request.url());
    });
    await openArticle(page, id, 'Opened cold');
    await expect
      .poll(() =>
        page
          .getByRole('article', { name: 'Article text' })
          .getByText('The first paragraph of the cold open.')
          .count(),
      )
      .toBe(1);
    expect(reads).toHaveLength(1);
  },
);

test.skipIf(!hasChromium)(
  "the site's build arrives live on the article page and the board card: the failing check and its annotation as text, the preview linked only when https",
  { timeout: 120_000 },
  async () => {
    const id = await articleIn('pr_open', { title: 'Built or not' });
    const page = await signedInPage(browser, inkstream, {
      email: 'builder@test.example',
      role: 'owner',
    });
    await openArticle(page, id, 'Built or not');
    const panel = page.getByRole('region', { name: 'Site build' });
    await expect.poll(() => panel.getByText('Not read yet', { exact: false }).count()).toBe(1);

    const hostile = '<img src=x onerror="window.__pwned = 1"> pubDate: Required';
    const headSha = 'abc';
    const record = (build: Record<string, unknown>, step: string) =>
      inkstream.platform.commands.execute(
        articleStream,
        id,
        {
          type: 'RecordBuild',
          build: { headSha, ...build } as never,
          at: inkstream.platform.clock.now(),
        },
        {
          accountId: account,
          actor: { kind: 'system', worker: 'publishing.build' },
          correlationId: id,
          requestId: id,
          commandId: `test-build:${id}:${step}`,
        },
      );
    await record(
      {
        state: 'failure',
        checks: [
          { name: 'astro build', state: 'failure', url: 'javascript:alert(1)', detail: hostile },
          { name: 'Vercel', state: 'success', url: 'https://vercel.com/acme/site/1', detail: null },
        ],
        previewUrl: null,
        reason:
          "The site's build rejects Inkstream's file: astro build: content/blog/built.mdx line 3",
      },
      'failed',
    );
    // Arrives over the live stream, without a reload.
    await expect
      .poll(() => panel.getByText('failed', { exact: true }).count(), { timeout: 30_000 })
      .toBe(1);
    expect(await panel.getByText(hostile, { exact: false }).count()).toBe(1);
    expect(
      await panel.getByText("The site's build rejects Inkstream's file", { exact: false }).count(),
    ).toBe(1);
    expect(await panel.getByRole('link', { name: 'astro build' }).count()).toBe(0);
    expect(await panel.getByRole('link', { name: 'Vercel' }).getAttribute('href')).toBe(
      'https://vercel.com/acme/site/1',
    );
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await checkPage(page, 'article-site-build');

    await page.goto(`${inkstream.url}/projects/${projectId}/articles`);
    const card = page.getByRole('article', { name: 'Built or not' });
    await expect
      .poll(() => card.getByText('Site build: failed (astro build)').count(), { timeout: 30_000 })
      .toBe(1);
    await record(
      {
        state: 'success',
        checks: [{ name: 'astro build', state: 'success', url: null, detail: null }],
        previewUrl: 'https://built-or-not.vercel.app/',
        reason: null,
      },
      'passed',
    );
    await expect
      .poll(() => card.getByText('Site build: passed').count(), { timeout: 30_000 })
      .toBe(1);
    await page.goto(articlePath(id));
    await expect
      .poll(() => panel.getByRole('link', { name: 'Preview' }).getAttribute('href'), {
        timeout: 30_000,
      })
      .toBe('https://built-or-not.vercel.app/');
  },
);

test.skipIf(!hasChromium)(
  'a proposed correction of a file the build rejected shows on the article page; an editor applies it with a button a viewer does not get',
  { timeout: 120_000 },
  async () => {
    const id = await articleIn('pr_open', { title: 'Corrected or not' });
    const headSha = 'abc';
    const context = (step: string) => ({
      accountId: account,
      actor: { kind: 'system' as const, worker: 'publishing.buildCorrection' },
      correlationId: id,
      requestId: id,
      commandId: `test-correction:${id}:${step}`,
    });
    const { platform } = inkstream;
    await platform.commands.execute(
      articleStream,
      id,
      {
        type: 'RecordBuild',
        build: {
          headSha,
          state: 'failure',
          checks: [
            { name: 'astro build', state: 'failure', url: null, detail: 'author: Required' },
          ],
          previewUrl: null,
          reason: "The site's build rejects Inkstream's file: astro build: author: Required",
        },
        at: platform.clock.now(),
      },
      context('failed'),
    );
    const path = (await inkstream.api().get(`/articles/${id}`)).body.article.path as string;
    const reason = '<b>The profile</b> renders the file differently.';
    await platform.commands.execute(
      articleStream,
      id,
      { type: 'ProposeBuildCorrection', path, reason, headSha, at: platform.clock.now() },
      context('proposed'),
    );

    const viewer = await signedInPage(browser, inkstream, {
      email: 'correction-viewer@test.example',
      role: 'viewer',
    });
    await openArticle(viewer, id, 'Corrected or not');
    const seen = viewer.getByRole('region', { name: 'Site build' });
    await expect
      .poll(() => seen.getByText('A corrected file is proposed', { exact: false }).count())
      .toBe(1);
    expect(await seen.getByRole('button', { name: 'Apply the correction' }).count()).toBe(0);

    const page = await signedInPage(browser, inkstream, {
      email: 'correction-editor@test.example',
      role: 'editor',
    });
    await openArticle(page, id, 'Corrected or not');
    const panel = page.getByRole('region', { name: 'Site build' });
    // The reason is text: its markup is shown, never rendered.
    await expect.poll(() => panel.getByText(reason, { exact: false }).count()).toBe(1);
    await panel.getByRole('button', { name: 'Apply the correction' }).click();
    await expect
      .poll(() =>
        panel.getByText('The corrected file is being committed', { exact: false }).count(),
      )
      .toBe(1);
    expect(await panel.getByRole('button', { name: 'Apply the correction' }).count()).toBe(0);
    expect((await inkstream.api().get(`/articles/${id}`)).body.article.buildCorrection.state).toBe(
      'applying',
    );
  },
);
