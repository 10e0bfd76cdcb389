import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { answerEveryCall } from '../support/modelAnswers.ts';
import { startModelWorld, type ModelWorld } from '../support/modelWorld.ts';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { defaultSitePages } from '../support/testSitePages.ts';

let world: ModelWorld;
let browser: Browser;
// The site's home page waits until the test lets it answer, so the crawl is seen under way.
let letHomeAnswer: () => void = () => undefined;
const homeMayAnswer = new Promise<void>((resolve) => {
  letHomeAnswer = resolve;
});

beforeAll(async () => {
  if (!hasChromium) return;
  world = await startModelWorld({
    respond: answerEveryCall,
    site: {
      pages: {
        '/': (_req, res) => {
          void homeMayAnswer.then(() => {
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            res.end(defaultSitePages['/'] as string);
          });
        },
      },
    },
  });
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  letHomeAnswer();
  await browser?.close();
  await world?.close();
});

test.skipIf(!hasChromium)(
  "one person creates a project; another's Projects page shows its card and its crawl moving, without a reload",
  { timeout: 180_000 },
  async () => {
    const watcher = await signedInPage(browser, world.app, {
      email: 'watcher@test.example',
      role: 'viewer',
    });
    await watcher.goto(`${world.app.url}/`);
    await watcher.waitForURL(/\/projects$/); // the home page
    await expect
      .poll(() => watcher.getByText('No projects yet').count(), { timeout: 30_000 })
      .toBe(1);
    await watcher.evaluate(() => {
      (globalThis as unknown as { stayed: boolean }).stayed = true;
    });
    expect(await watcher.getByRole('form', { name: 'New project' }).count()).toBe(0); // a viewer changes nothing

    const creator = await signedInPage(browser, world.app, {
      email: 'editor@test.example',
      role: 'editor',
    });
    await creator.goto(`${world.app.url}/projects`);
    const siteField = creator.getByLabel('Site address');
    // Hostile first: an address that is not a web page is refused on its field, and nothing is created.
    for (const bad of ['javascript:alert(1)', 'not a url']) {
      await siteField.fill(bad);
      await creator.getByRole('button', { name: 'Create project' }).click();
      await expect.poll(() => siteField.getAttribute('aria-invalid')).toBe('true');
      expect(await creator.locator('#websiteUrl-error').textContent()).not.toBe('');
    }
    expect((await world.app.api().get('/projects')).body.projects).toHaveLength(0);

    await siteField.fill(world.site.url('/'));
    await creator.getByLabel(/^Name/).fill('Bakery site');
    await creator.getByRole('button', { name: 'Create project' }).click();

    const card = watcher.getByRole('listitem').filter({ hasText: 'Bakery site' });
    await expect.poll(() => card.count(), { timeout: 30_000 }).toBe(1);
    await expect
      .poll(() => card.getByRole('status').textContent(), { timeout: 30_000 })
      .toBe('Crawling the site…');
    expect(await card.textContent()).toContain('No articles yet');
    expect(await card.textContent()).toContain('Active');
    await checkPage(watcher, 'projects');

    letHomeAnswer();
    await expect
      .poll(() => card.getByRole('status').textContent(), { timeout: 90_000 })
      .toMatch(/^Brand learned from \d+ pages?$/);
    expect(
      await watcher.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed),
    ).toBe(true);

    await card.getByRole('link', { name: 'Bakery site' }).click();
    await watcher.waitForURL(/\/projects\/prj_[0-9a-z]+$/);
    await expect.poll(() => watcher.getByRole('heading', { name: 'Bakery site' }).count()).toBe(1);
    expect(
      await watcher
        .getByRole('navigation', { name: 'Project' })
        .getByRole('link', { name: 'Overview' })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(await watcher.getByRole('term').allTextContents()).toEqual([
      'Queued',
      'Researching',
      'Writing',
      'Draft',
      'Publishing',
      'PR open',
      'Merged',
      'Closed',
      'Failed',
    ]);
    await checkPage(watcher, 'project-overview');
    await checkPage(creator, 'projects-editor');
  },
);
