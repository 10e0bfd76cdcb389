import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { eventually } from '../support/eventually.ts';
import type { ScriptedResponse } from '../support/fakeOpenAi.ts';
import type { ApiClient } from '../support/inkstream.ts';
import { answerEveryCall, kindOf } from '../support/modelAnswers.ts';
import { startModelWorld, type ModelWorld } from '../support/modelWorld.ts';

/** Waits for what a loaded machine may take a while to show. */
const SLOW = { timeout: 30_000 };
const HOSTILE = '<img src=x onerror=alert(1)>';
const SUGGESTED = [
  'Sourdough starter care for busy mornings',
  'Wholesale pricing for cafes',
  'Reducing day-old waste',
  'Staffing the early shift',
  'Gluten-free without cross-contact',
  'Seasonal menus that sell',
];

/** The model answers every call, except that research can be held open and drafts can be refused (401) on demand. */
let researchHeld: Promise<void> | null = null;
let failArticles = false;
const respond = (request: Parameters<typeof answerEveryCall>[0]): ScriptedResponse => {
  if (kindOf(request) === 'topic_suggestions' && researchHeld)
    return { kind: 'held', until: researchHeld, then: answerEveryCall(request) };
  if (kindOf(request) === 'article_research' && failArticles)
    return {
      kind: 'error',
      status: 401,
      message: 'Incorrect API key provided.',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    };
  return answerEveryCall(request);
};

let world: ModelWorld;
let api: ApiClient;
let browser: Browser;
let projectId: string;
beforeAll(async () => {
  if (!hasChromium) return;
  world = await startModelWorld({ respond });
  api = world.app.api();
  projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: world.site.origin })).body
    .project.id;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status !== 'pending' && r.body.project.crawl.status !== 'running',
    { what: 'the crawl', timeoutMs: 90_000 },
  );
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const column = (page: Page, name: string) =>
  page.getByRole('region', { name: new RegExp(`^${name} `) });
const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });
const titlesIn = (page: Page, name: string) =>
  column(page, name).getByRole('heading', { level: 3 }).allTextContents();

test.skipIf(!hasChromium)(
  'a topic titled with markup shows it as text: no element is made of it and no dialog opens',
  { timeout: 120_000 },
  async () => {
    await api.post(`/projects/${projectId}/topics`, {
      title: HOSTILE,
      keyword: '"><script>alert(2)</script>',
    });
    const page = await signedInPage(browser, world.app, {
      email: 'hostile@test.example',
      role: 'editor',
    });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => dialogs.push(dialog.message()));
    await page.goto(`${world.app.url}/projects/${projectId}/topics`);
    await expect
      .poll(() => column(page, 'Approved').getByText(HOSTILE, { exact: true }).count(), {
        timeout: 30_000,
      })
      .toBe(1);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(
      await column(page, 'Approved').getByText('Keyword: "><script>alert(2)</script>').count(),
    ).toBe(1);
    expect(dialogs).toEqual([]);
  },
);

test.skipIf(!hasChromium)(
  'suggest shows the run until its suggestions arrive with their rationale; approve moves a card; a past schedule is refused on the field; the keyboard reorders',
  { timeout: 180_000 },
  async () => {
    let release!: () => void;
    researchHeld = new Promise((resolve) => {
      release = resolve;
    });
    const page = await signedInPage(browser, world.app, {
      email: 'editor@test.example',
      role: 'editor',
    });
    await page.goto(`${world.app.url}/projects/${projectId}/topics`);
    await page.getByRole('button', { name: 'Suggest topics' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Researching topics' }).count(), {
        timeout: 30_000,
      })
      .toBe(1);
    expect(await page.getByRole('button', { name: 'Suggest topics' }).isDisabled()).toBe(true);
    release();
    researchHeld = null;

    await expect
      .poll(() => titlesIn(page, 'Suggested').then((titles) => titles.sort()), { timeout: 60_000 })
      .toEqual([...SUGGESTED].sort());
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'suggested 6 topics' }).count(), SLOW)
      .toBe(1);
    expect(await card(page, SUGGESTED[0]).getByText('The blog covers it.').count()).toBe(1);
    await checkPage(page, 'boards-topics');

    await card(page, SUGGESTED[0]).getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(
        () => column(page, 'Approved').getByRole('heading', { name: SUGGESTED[0] }).count(),
        SLOW,
      )
      .toBe(1);
    expect(
      await column(page, 'Suggested').getByRole('heading', { name: SUGGESTED[0] }).count(),
    ).toBe(0);

    const pastOne = card(page, SUGGESTED[1]);
    await pastOne.getByRole('button', { name: 'Schedule' }).click();
    const picker = pastOne.getByLabel(/^Write on/);
    await picker.fill('2020-01-01T09:30');
    await pastOne.getByRole('button', { name: 'Schedule', exact: true }).last().click();
    await expect
      .poll(() => pastOne.getByRole('alert').textContent(), SLOW)
      .toMatch(/must be later than now/);
    expect(await picker.getAttribute('aria-invalid')).toBe('true');
    expect(
      await column(page, 'Scheduled').getByRole('heading', { name: SUGGESTED[1] }).count(),
    ).toBe(0);

    await picker.fill('2099-06-01T09:30');
    await pastOne.getByRole('button', { name: 'Schedule', exact: true }).last().click();
    await expect
      .poll(
        () => column(page, 'Scheduled').getByRole('heading', { name: SUGGESTED[1] }).count(),
        SLOW,
      )
      .toBe(1);
    const scheduled = (await api.get(`/projects/${projectId}/topics?status=scheduled`)).body
      .topics[0];
    expect(scheduled.scheduledFor).toBe(new Date(2099, 5, 1, 9, 30).toISOString()); // the browser's local time, sent as UTC

    const [a, b, c, last] = await titlesIn(page, 'Suggested'); // equal priorities: the oldest first
    await card(page, last)
      .getByRole('button', { name: `Move ${last} up` })
      .focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => titlesIn(page, 'Suggested'), SLOW).toEqual([a, b, last, c]);
    await card(page, last)
      .getByRole('button', { name: `Move ${last} up` })
      .focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => titlesIn(page, 'Suggested'), SLOW).toEqual([a, last, b, c]);
    await page.keyboard.press('Enter'); // the focus stayed on the button as its card moved
    await expect.poll(() => titlesIn(page, 'Suggested'), SLOW).toEqual([last, a, b, c]);
    const priorities = (await api.get(`/projects/${projectId}/topics?status=suggested`)).body
      .topics;
    expect(Math.max(...priorities.map((t: { priority: number }) => t.priority))).toBe(
      priorities.find((t: { title: string }) => t.title === last).priority,
    );
  },
);

test.skipIf(!hasChromium)(
  'dragging a card above another changes the order',
  { timeout: 120_000 },
  async () => {
    const page = await signedInPage(browser, world.app, {
      email: 'dragger@test.example',
      role: 'editor',
    });
    await page.goto(`${world.app.url}/projects/${projectId}/topics`);
    await expect.poll(() => titlesIn(page, 'Suggested'), { timeout: 30_000 }).toHaveLength(4);
    const [top, second, third, bottom] = await titlesIn(page, 'Suggested');
    // Both cards in view: a scroll between pressing on one card and reaching the other would start the drag elsewhere.
    await page.setViewportSize({ width: 1280, height: 1600 });
    await card(page, bottom).dragTo(card(page, top));
    await expect
      .poll(() => titlesIn(page, 'Suggested'), SLOW)
      .toEqual([bottom, top, second, third]);
  },
);

test.skipIf(!hasChromium)(
  '"Write this" puts the article on the pipeline board, where it moves to draft; a failed one shows why, and Retry takes it on',
  { timeout: 180_000 },
  async () => {
    const page = await signedInPage(browser, world.app, {
      email: 'writer@test.example',
      role: 'editor',
    });
    await page.goto(`${world.app.url}/projects/${projectId}/topics`);
    await card(page, SUGGESTED[0]).getByRole('button', { name: 'Write this' }).click();
    await page.getByRole('status').getByRole('link', { name: 'Articles board' }).click();
    await page.waitForURL(`${world.app.url}/projects/${projectId}/articles`);
    await expect
      .poll(
        () =>
          column(page, 'Draft')
            .getByRole('link', { name: 'Holiday Pre-Orders for Small Bakeries' })
            .count(),
        { timeout: 60_000 },
      )
      .toBe(1);
    const link = await column(page, 'Draft').getByRole('link').first().getAttribute('href');
    expect(link).toMatch(new RegExp(`^/projects/${projectId}/articles/art_\\w+$`));

    failArticles = true;
    const topic = (await api.post(`/projects/${projectId}/topics`, { title: 'Flour storage' })).body
      .topic;
    await api.post(`/topics/${topic.id}/write`);
    const failed = card(page, 'Flour storage');
    await expect
      .poll(() => column(page, 'Failed').getByRole('article', { name: 'Flour storage' }).count(), {
        timeout: 60_000,
      })
      .toBe(1);
    expect(await failed.textContent()).toContain('Check OPENAI_API_KEY');
    await checkPage(page, 'boards-articles');

    failArticles = false;
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect
      .poll(() => column(page, 'Draft').getByRole('article').count(), { timeout: 60_000 })
      .toBe(2);
    expect(await column(page, 'Failed').getByRole('article').count()).toBe(0);
  },
);

test.skipIf(!hasChromium)(
  'a viewer reads both boards and finds no control to change anything',
  { timeout: 120_000 },
  async () => {
    const page = await signedInPage(browser, world.app, {
      email: 'viewer@test.example',
      role: 'viewer',
    });
    await page.goto(`${world.app.url}/projects/${projectId}/topics`);
    await expect
      .poll(() => column(page, 'Scheduled').getByRole('heading', { name: SUGGESTED[1] }).count(), {
        timeout: 30_000,
      })
      .toBe(1);
    expect(await page.locator('main button').count()).toBe(0);
    expect(await page.locator('main [draggable="true"]').count()).toBe(0);

    await page
      .getByRole('navigation', { name: 'Project' })
      .getByRole('link', { name: 'Articles' })
      .click();
    await expect
      .poll(() => column(page, 'Draft').getByRole('article').count(), { timeout: 30_000 })
      .toBe(2);
    expect(await page.locator('main button').count()).toBe(0);
  },
);

test.skipIf(!hasChromium)(
  "column headers show the project's totals, and each change reloads a board once: an action of this tab is not read twice",
  { timeout: 180_000 },
  async () => {
    const page = await signedInPage(browser, world.app, {
      email: 'counter@test.example',
      role: 'editor',
    });
    const reads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (
        url.pathname === `/api/v1/projects/${projectId}` ||
        (url.pathname === `/api/v1/projects/${projectId}/topics` &&
          url.searchParams.get('status') === 'rejected')
      )
        reads.push(url.pathname + url.search);
    });
    const header = (name: string) =>
      column(page, name).getByRole('heading', { level: 2 }).textContent();
    const counts = async () =>
      (await api.get(`/projects/${projectId}`)).body.project as {
        topicCounts: Record<string, number>;
        articleCounts: Record<string, number>;
      };

    await page.goto(`${world.app.url}/projects/${projectId}/articles`);
    const { articleCounts } = await counts();
    await expect.poll(() => header('Draft'), SLOW).toBe(`Draft ${articleCounts.draft}`);
    expect(await header('Merged')).toBe('Merged 0');

    await api.post(`/projects/${projectId}/topics`, { title: 'Counted once' });
    await page
      .getByRole('navigation', { name: 'Project' })
      .getByRole('link', { name: 'Topics' })
      .click();
    await expect.poll(() => card(page, 'Counted once').count(), SLOW).toBe(1);
    const before = await counts();
    await expect
      .poll(() => header('Approved'), SLOW)
      .toBe(`Approved ${before.topicCounts.approved}`);
    expect(await header('Rejected')).toBe(`Rejected ${before.topicCounts.rejected}`);

    reads.length = 0;
    await card(page, 'Counted once').getByRole('button', { name: 'Reject' }).click();
    await expect
      .poll(
        () => column(page, 'Rejected').getByRole('heading', { name: 'Counted once' }).count(),
        SLOW,
      )
      .toBe(1);
    await expect
      .poll(() => header('Rejected'), SLOW)
      .toBe(`Rejected ${before.topicCounts.rejected + 1}`);
    expect(await header('Approved')).toBe(`Approved ${before.topicCounts.approved - 1}`);
    // A second change, from elsewhere: once it shows, the first change's reads are all done.
    await api.post(`/projects/${projectId}/topics`, { title: 'Counted too' });
    await expect.poll(() => card(page, 'Counted too').count(), SLOW).toBe(1);
    await expect
      .poll(() => header('Approved'), SLOW)
      .toBe(`Approved ${before.topicCounts.approved}`);
    expect(reads.filter((read) => read.includes('status=rejected'))).toHaveLength(2);
    expect(reads.filter((read) => !read.includes('?'))).toHaveLength(2);
  },
);
