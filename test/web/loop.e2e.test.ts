import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { FakeGitHub } from '../support/fakeGitHub.ts';
import { pullRequestClosed, signWebhook } from '../support/githubWebhooks.ts';
import { answerEveryCall } from '../support/modelAnswers.ts';
import { startModelWorld, type ModelWorld } from '../support/modelWorld.ts';

/**
 * The contract's typical loop done entirely in the web app, in Chromium, against the local test
 * website, the local OpenAI-compatible model and the fake GitHub: create a project → crawl →
 * suggest → approve a suggestion → write → the card reaches draft → read it → revise → approve →
 * the pull request link → merged after a simulated merge. Only the merge happens outside the page.
 */
let world: ModelWorld;
let github: FakeGitHub;
let browser: Browser;
beforeAll(async () => {
  if (!hasChromium) return;
  github = await FakeGitHub.start();
  github.addRepository({ owner: 'acme', name: 'site', files: { 'README.md': '# Acme site\n' } });
  github.addToken('ghp_writer', { login: 'inkbot', repositories: { 'acme/site': 'write' } });
  world = await startModelWorld({
    respond: answerEveryCall,
    env: { GITHUB_API_URL: github.baseUrl },
  });
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await world?.close();
  await github?.close();
});

const SOON = { timeout: 60_000 };
/** What the loop made, for the viewer's walk through the same pages. */
let made: { projectId: string; articleId: string } | undefined;
const column = (page: Page, name: string) =>
  page.getByRole('region', { name: new RegExp(`^${name} `) });
const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });
const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name }).click();

test.skipIf(!hasChromium)(
  'create → crawl → suggest → approve → write → draft → read → revise → approve → pull request → merged, all in the browser',
  { timeout: 600_000 },
  async () => {
    const page = await signedInPage(browser, world.app, {
      email: 'owner@acme.example',
      role: 'owner',
    });
    await page.goto(`${world.app.url}/`);
    await page.waitForURL(/\/projects$/);

    await page.getByLabel('Site address').fill(world.site.url('/'));
    await page.getByLabel(/^Name/).fill('Acme Bakery');
    await page.getByRole('button', { name: 'Create project' }).click();
    const projectCard = page.getByRole('listitem').filter({ hasText: 'Acme Bakery' });
    await expect
      .poll(() => projectCard.getByRole('status').textContent(), { timeout: 120_000 })
      .toMatch(/^Brand learned from \d+ pages?$/);
    await projectCard.getByRole('link', { name: 'Acme Bakery' }).click();
    const projectId = /\/projects\/([\w-]+)$/.exec(
      await page.evaluate(
        () => (globalThis as unknown as { location: { pathname: string } }).location.pathname,
      ),
    )![1];

    await tab(page, 'Integrations');
    const gh = page.getByRole('region', { name: 'GitHub' });
    await gh.getByLabel('Repository (owner/name)').fill('acme/site');
    await gh.getByLabel('Token', { exact: true }).fill('ghp_writer');
    await gh.getByRole('button', { name: 'Connect GitHub' }).click();
    const webhookSecret = (await gh.getByTestId('new-secret').textContent({ timeout: 30_000 }))!;
    await gh.getByRole('button', { name: 'I stored it' }).click();

    await tab(page, 'Topics');
    await page.getByRole('button', { name: 'Suggest topics' }).click();
    await expect
      .poll(() => column(page, 'Suggested').getByRole('heading', { level: 3 }).count(), SOON)
      .toBeGreaterThan(0);
    const suggestion = (await column(page, 'Suggested')
      .getByRole('heading', { level: 3 })
      .first()
      .textContent())!;
    await card(page, suggestion).getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => column(page, 'Approved').getByRole('heading', { name: suggestion }).count(), SOON)
      .toBe(1);
    await card(page, suggestion).getByRole('button', { name: 'Write this' }).click();

    await tab(page, 'Articles');
    const draftLink = column(page, 'Draft').getByRole('link').first();
    await expect.poll(() => draftLink.count(), SOON).toBe(1); // the card moves there without a reload
    const title = (await draftLink.textContent())!;
    await draftLink.click();
    const articleId = /\/articles\/([\w-]+)$/.exec(
      await page.evaluate(
        () => (globalThis as unknown as { location: { pathname: string } }).location.pathname,
      ),
    )![1];
    made = { projectId, articleId };

    await page.getByRole('heading', { level: 1, name: title }).waitFor(SOON);
    await expect.poll(() => page.locator('.status').textContent(), SOON).toBe('Draft');
    await checkPage(page, 'loop-article-draft');

    await page.getByLabel('Revision instruction').fill('Shorten the introduction.');
    await page.getByRole('button', { name: 'Ask for a revision' }).click();
    await expect
      .poll(
        () => page.getByText(/Last revision \(version 2\): Shortened the introduction\./).count(),
        SOON,
      )
      .toBe(1);

    await page.getByRole('button', { name: 'Approve' }).click();
    const pullRequest = page.getByRole('link', { name: /^Pull request/ });
    await expect.poll(() => pullRequest.count(), SOON).toBe(1);
    expect(await pullRequest.getAttribute('href')).toBe('https://github.com/acme/site/pull/1');
    await expect.poll(() => page.locator('.status').textContent(), SOON).toBe('PR open');

    github.mergePullRequest('acme', 'site', 1, 'octo');
    const merge = await signWebhook(
      'pull_request',
      pullRequestClosed(github, { owner: 'acme', repo: 'site', number: 1 }),
      webhookSecret,
    );
    expect(
      (
        await fetch(`${world.app.url}/api/v1/integrations/github/events`, {
          method: 'POST',
          headers: merge.headers,
          body: merge.body,
        })
      ).status,
    ).toBe(202);
    await expect.poll(() => page.locator('.status').textContent(), SOON).toBe('Merged');

    await page.goto(`${world.app.url}/projects/${projectId}/articles`);
    await expect
      .poll(() => column(page, 'Merged').getByRole('link', { name: title }).count(), SOON)
      .toBe(1);
    await checkPage(page, 'loop-articles-merged');
  },
);

test.skipIf(!hasChromium)(
  'a viewer opens every page of the application and, pressing every button it offers, changes nothing',
  { timeout: 600_000 },
  async () => {
    const { projectId, articleId } = made!;
    const endpoint = await world.app
      .api()
      .post('/webhooks', { url: 'https://hooks.acme.example/inkstream' });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const viewer = await signedInPage(browser, world.app, {
      email: 'auditor@acme.example',
      role: 'viewer',
    });
    const changes: string[] = [];
    viewer.on('response', (response) => {
      const request = response.request();
      if (
        request.method() !== 'GET' &&
        response.ok() &&
        !request.url().endsWith('/app/api/access-token')
      )
        changes.push(`${request.method()} ${request.url()}`);
    });
    let pressed = 0;
    const headBefore = await world.app.platform.eventStore.headPosition();

    const pages = [
      '/projects',
      `/projects/${projectId}`,
      `/projects/${projectId}/topics`,
      `/projects/${projectId}/articles`,
      `/projects/${projectId}/articles/${articleId}`,
      `/projects/${projectId}/articles/${articleId}/history`,
      `/projects/${projectId}/brand`,
      `/projects/${projectId}/settings`,
      `/projects/${projectId}/integrations`,
      '/webhooks',
      `/webhooks/${endpoint.body.webhook.id}`,
      '/account',
      '/members',
    ];
    // Reading controls a page loads after its heading (the article's timeline is a read of its own):
    // pressing starts once they are there, or a loaded host counts the buttons before them.
    const readingControls: Record<string, RegExp> = {
      [`/projects/${projectId}/articles/${articleId}`]: /^As it was here/,
      [`/projects/${projectId}/articles/${articleId}/history`]: /^Download JSON Lines$/,
    };
    for (const path of pages) {
      await viewer.goto(`${world.app.url}${path}`);
      await expect
        .poll(() => viewer.locator('h1').count(), { ...SOON, message: `a heading on ${path}` })
        .toBeGreaterThan(0);
      // The article page's first response holds the server's rendering of the body, heading included,
      // with no controls: the page is the app's once it has taken that over.
      await expect
        .poll(() => viewer.locator('#prerendered-article').count(), {
          ...SOON,
          message: `${path} taken over by the app`,
        })
        .toBe(0);
      await expect
        .poll(() => viewer.locator('[aria-busy="true"]').count(), {
          ...SOON,
          message: `${path} loaded`,
        })
        .toBe(0);
      const control = readingControls[path];
      if (control)
        await expect
          .poll(() => viewer.getByRole('button', { name: control }).count(), {
            ...SOON,
            message: `${path}'s reading controls`,
          })
          .toBeGreaterThan(0);
      const buttons = viewer.locator('main button:enabled');
      for (let i = 0; i < (await buttons.count()); i += 1) {
        await buttons
          .nth(i)
          .click({ timeout: 3_000 })
          .then(
            () => {
              pressed += 1;
            },
            () => undefined,
          ); // a button that moved or vanished is skipped
      }
      await checkPage(
        viewer,
        `viewer${path.replaceAll('/', '-').replace(/(prj|art|whk)_\w+/g, '$1')}`,
      );
    }
    expect(pressed).toBeGreaterThan(5); // the reading controls (downloads, as-it-was, filters) were there to press
    expect(changes).toEqual([]);
    expect(await world.app.platform.eventStore.headPosition()).toBe(headBefore);
  },
);
