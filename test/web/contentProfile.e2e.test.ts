import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import {
  astroBlogProfile,
  reconnectAs,
  recordProfile,
  stopProfileLearner,
} from '../support/contentProfile.ts';
import { FakeGitHub } from '../support/fakeGitHub.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { stopPipeline } from '../support/stopPipeline.ts';

/**
 * The content profile on the integrations page, in a real browser: a legacy connection's learned
 * profile shown and turned on, corrected by an owner (the server's refusal on the field it names),
 * read by a viewer who can change nothing, and the learning and failed states. The profile's text
 * comes from the customer's repository, so a hostile one must show as text.
 */
let inkstream: TestInkstream;
let browser: Browser;
let github: FakeGitHub;

const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_FILE = 'src/<img src=y onerror="window.__pwned=2">.ts';

beforeAll(async () => {
  if (!hasChromium) return;
  github = await FakeGitHub.start();
  github.addRepository({ owner: 'acme', name: 'site', files: { 'README.md': '# Acme\n' } });
  github.addToken('ghp_writer', { login: 'inkbot', repositories: { 'acme/site': 'write' } });
  inkstream = await startInkstream({ env: { GITHUB_API_URL: github.baseUrl } });
  await stopPipeline(inkstream);
  await stopProfileLearner(inkstream);
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
  await github?.close();
});

async function connectedProject(name: string, kind: 'legacy' | 'learning'): Promise<string> {
  const api = inkstream.api();
  const projectId = (await api.post('/projects', { name, websiteUrl: 'https://crumb.example' }))
    .body.project.id;
  const connected = await api.put(`/projects/${projectId}/integrations/github`, {
    repository: 'acme/site',
    credentials: { type: 'token', token: 'ghp_writer' },
  });
  expect(connected.status).toBe(200);
  await reconnectAs(inkstream.platform, projectId, kind);
  return projectId;
}

const page = (projectId: string) => `${inkstream.url}/projects/${projectId}/integrations`;
const profileSection = (tab: Page) => tab.getByRole('region', { name: 'Content profile' });
const describedBy = async (tab: Page, label: string) => {
  const ids = (await tab.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  return (
    await Promise.all(
      ids
        .split(' ')
        .filter(Boolean)
        .map((id) => tab.locator(`[id="${id}"]`).textContent()),
    )
  ).join(' ');
};

test.skipIf(!hasChromium)(
  'an owner sees what was learned with the file and line of each field, turns it on, and corrects it; hostile text stays text',
  { timeout: 300_000 },
  async () => {
    const projectId = await connectedProject('Crumb', 'legacy');
    const hostile = astroBlogProfile();
    hostile.fields.push({
      role: null,
      name: HOSTILE_NAME,
      type: 'string',
      required: false,
      source: { file: HOSTILE_FILE, line: 4 },
    });
    await recordProfile(inkstream.platform, projectId, hostile, {
      commit: 'abcdef1'.padEnd(40, '0'),
    });

    const owner = await signedInPage(browser, inkstream, {
      email: 'owner@crumb.example',
      role: 'owner',
    });
    await owner.goto(page(projectId));
    const profile = profileSection(owner);
    await profile
      .getByText('Inkstream’s fixed shape (content/blog/<slug>.mdx)', { exact: false })
      .waitFor();
    expect(await profile.getByTestId('profile-post-path').textContent()).toBe(
      'src/content/blog/{slug}.md',
    );
    await checkPage(owner, 'integrations-profile-legacy');

    await profile.getByRole('button', { name: 'Use the learned profile' }).click();
    await profile
      .getByText('Articles are committed in the shape the site uses')
      .waitFor({ timeout: 15_000 });
    expect(await profile.getByRole('button', { name: 'Use the learned profile' }).count()).toBe(0);
    expect(
      (await inkstream.api().get(`/projects/${projectId}/integrations/github`)).body.github
        .contentProfile.state,
    ).toBe('learned');

    const fields = profile.getByTestId('profile-fields');
    const pubDate = fields.getByRole('row').filter({ hasText: 'pubDate' });
    expect(await pubDate.textContent()).toMatch(
      /pubDate\s*date\s*date\s*yes\s*src\/content\.config\.ts:11/,
    );
    expect(await profile.textContent()).toContain('Astro');
    expect(await profile.textContent()).toContain('commit abcdef1');
    // The repository's text is shown as text: no element made of it, nothing run.
    await fields.getByText(HOSTILE_NAME, { exact: true }).waitFor();
    await fields.getByText(`${HOSTILE_FILE}:4`, { exact: true }).waitFor();
    expect(await owner.locator('main img').count()).toBe(0);
    expect(
      await owner.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
    ).toBeUndefined();

    await profile.getByText('Correct the profile').click();
    await profile.getByLabel('File name', { exact: true }).fill('post.md');
    await profile.getByRole('button', { name: 'Save corrections' }).click();
    await expect
      .poll(() => describedBy(owner, 'File name'), { timeout: 15_000 })
      .toMatch(/must contain \{slug\}/);
    expect(
      await profile.getByLabel('File name', { exact: true }).getAttribute('aria-invalid'),
    ).toBe('true');
    await checkPage(owner, 'integrations-profile-refused');
    expect(
      (await inkstream.api().get(`/projects/${projectId}/integrations/github`)).body.github
        .contentProfile.overrides,
    ).toEqual({});

    await profile.getByLabel('File name', { exact: true }).fill('{slug}/index.md');
    await profile.getByLabel('Field holding the date', { exact: true }).fill('published');
    await profile.getByLabel('Posts directory', { exact: true }).fill('src/content/news');
    await profile.getByRole('button', { name: 'Save corrections' }).click();
    await expect
      .poll(() => profile.getByTestId('profile-post-path').textContent(), { timeout: 15_000 })
      .toBe('src/content/news/{slug}/index.md');
    await fields
      .getByRole('row')
      .filter({ hasText: 'published' })
      .getByText('inkstream:overrides')
      .waitFor();
    expect(
      (await inkstream.api().get(`/projects/${projectId}/integrations/github`)).body.github
        .contentProfile.overrides,
    ).toEqual({
      directory: 'src/content/news',
      fileName: '{slug}/index.md',
      fieldNames: { date: 'published' },
    });

    // A viewer reads the same profile and finds nothing to change.
    const viewer = await signedInPage(browser, inkstream, {
      email: 'viewer@crumb.example',
      role: 'viewer',
    });
    await viewer.goto(page(projectId));
    const seen = profileSection(viewer);
    await seen.getByTestId('profile-fields').getByText('published', { exact: true }).waitFor();
    expect(await seen.getByText('Correct the profile').count()).toBe(0);
    expect(await seen.locator('button, input, select, textarea').count()).toBe(0);
    await checkPage(viewer, 'integrations-profile-viewer');
  },
);

test.skipIf(!hasChromium)(
  'while the repository is read the page says so, and a failure shows its reason',
  { timeout: 120_000 },
  async () => {
    const projectId = await connectedProject('Crumb learning', 'learning');
    const owner = await signedInPage(browser, inkstream, {
      email: 'owner2@crumb.example',
      role: 'owner',
    });
    await owner.goto(page(projectId));
    const state = profileSection(owner).getByTestId('profile-state');
    await expect
      .poll(() => state.textContent(), { timeout: 15_000 })
      .toMatch(/^Learning the repository’s conventions…/);

    await recordProfile(inkstream.platform, projectId, null, {
      failureReason: 'src/content.config.ts <b>could not</b> be parsed (line 3)',
    });
    await owner.reload();
    await expect
      .poll(() => profileSection(owner).getByTestId('profile-state').textContent(), {
        timeout: 15_000,
      })
      .toMatch(/failed: src\/content\.config\.ts <b>could not<\/b> be parsed \(line 3\)/);
    expect(await profileSection(owner).locator('b').count()).toBe(0);
    expect(await profileSection(owner).getByRole('button').count()).toBe(0);
  },
);
