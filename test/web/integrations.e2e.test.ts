import { generateKeyPairSync } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { FakeGitHub } from '../support/fakeGitHub.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { stopPipeline } from '../support/stopPipeline.ts';
import { startReceiverPool, type Receiver } from '../support/webhookReceiver.ts';

/**
 * The integrations page in a real browser, on an account of the free plan (GitHub by pull request
 * and the hook are for every plan; search analytics is not): the fake GitHub behind the
 * connection, a local HTTPS receiver as the post-publish hook.
 */
let inkstream: TestInkstream;
let browser: Browser;
let github: FakeGitHub;
let receivers: Awaited<ReturnType<typeof startReceiverPool>>;
let receiver: Receiver;
let projectId: string;

beforeAll(async () => {
  if (!hasChromium) return;
  github = await FakeGitHub.start();
  github.addRepository({ owner: 'acme', name: 'site', files: { 'README.md': '# Acme site\n' } });
  github.addToken('ghp_writer', { login: 'inkbot', repositories: { 'acme/site': 'write' } });
  receivers = await startReceiverPool();
  receiver = await receivers.start();
  inkstream = await startInkstream({ plan: 'free', env: { GITHUB_API_URL: github.baseUrl } });
  await stopPipeline(inkstream);
  projectId = (await inkstream.api().post('/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' })).body.project.id;
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
  await receivers?.close();
  await github?.close();
});

const page = () => `${inkstream.url}/projects/${projectId}/integrations`;
const section = (tab: Page, name: string) => tab.getByRole('region', { name });
/** The message the page tied to a control (aria-describedby), as a screen reader would read it. */
const describedBy = async (tab: Page, label: string) => {
  const ids = (await tab.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  return (await Promise.all(ids.split(' ').filter(Boolean).map((id) => tab.locator(`[id="${id}"]`).textContent()))).join(' ');
};

test.skipIf(!hasChromium)('an owner connects GitHub (a wrong token is refused on its field), sees the webhook secret once, sets the hook and sends it a test call, and is told which plan has search analytics', { timeout: 300_000 }, async () => {
  const owner = await signedInPage(browser, inkstream, { email: 'owner@crumb.example', role: 'owner' });
  await owner.goto(page());
  await owner.getByRole('heading', { name: 'Integrations of Crumb' }).waitFor();
  await expect.poll(() => owner.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Integrations' }).getAttribute('aria-current')).toBe('page');
  await checkPage(owner, 'integrations-empty');

  const gh = section(owner, 'GitHub');
  await gh.getByLabel('Repository (owner/name)').fill('acme/site');
  await gh.getByLabel('Token', { exact: true }).fill('ghp_wrong');
  await gh.getByRole('button', { name: 'Connect GitHub' }).click();
  await expect.poll(() => describedBy(owner, 'Token'), { timeout: 15_000 }).toMatch(/GitHub rejected the credential/);
  expect(await gh.getByLabel('Token', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  expect((await inkstream.api().get(`/projects/${projectId}/integrations/github`)).status).toBe(404);
  await checkPage(owner, 'integrations-github-refused');

  await gh.getByLabel('Token', { exact: true }).fill('ghp_writer');
  await gh.getByRole('button', { name: 'Connect GitHub' }).click();
  const secret = gh.getByTestId('new-secret');
  await secret.waitFor({ timeout: 15_000 });
  expect(await secret.textContent()).toMatch(/^[0-9a-f]{64}$/);
  expect(await gh.getByTestId('github-webhook-url').textContent()).toBe(`${inkstream.url}/api/v1/integrations/github/events`);
  expect((await inkstream.api().get(`/projects/${projectId}/integrations/github`)).body.github).toMatchObject({ repository: 'acme/site', credentials: { type: 'token' } });
  await checkPage(owner, 'integrations-github-connected');
  await gh.getByRole('button', { name: 'I stored it' }).click();
  await owner.reload();
  await section(owner, 'GitHub').getByText('acme/site', { exact: true }).waitFor();
  expect(await owner.getByTestId('new-secret').count()).toBe(0);

  const hook = section(owner, 'Post-publish hook');
  await hook.getByLabel('Hook URL').fill(receiver.url);
  await hook.getByRole('button', { name: 'Set hook' }).click();
  const hookSecret = hook.getByTestId('new-secret');
  await hookSecret.waitFor({ timeout: 15_000 });
  receiver.secret = (await hookSecret.textContent())!;
  expect(receiver.secret).toMatch(/^whsec_/);
  await hook.getByRole('button', { name: 'Send a test call' }).click();
  const calls = hook.getByTestId('hook-calls');
  await expect.poll(() => calls.getByRole('row').count(), { timeout: 15_000 }).toBe(2);
  expect(await calls.getByRole('row').nth(1).textContent()).toMatch(/test call\s*204\s*OK/);
  expect(receiver.received).toHaveLength(1);
  expect(receiver.received[0].verified).toBe(true);
  await checkPage(owner, 'integrations-hook-called');

  const search = section(owner, 'Search analytics');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await search.getByLabel('Property').fill('sc-domain:crumb.example');
  await search.getByLabel('Service account email').fill('sync@crumb.iam.gserviceaccount.com');
  await search.getByLabel('Service account private key').fill(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  await search.getByRole('button', { name: 'Connect search analytics' }).click();
  await expect.poll(() => search.getByTestId('plans-including').textContent(), { timeout: 15_000 }).toBe('pro, unlimited');
  expect(await search.getByRole('alert').first().textContent()).toContain('The free plan does not include search analytics');
  await checkPage(owner, 'integrations-search-plan-limit');

  await gh.getByRole('button', { name: 'Disconnect GitHub' }).click();
  await gh.getByText('Not connected').waitFor({ timeout: 15_000 });
  expect((await inkstream.api().get(`/projects/${projectId}/integrations/github`)).status).toBe(404);
});

test.skipIf(!hasChromium)('a viewer sees the integrations with every control that changes something disabled', { timeout: 120_000 }, async () => {
  expect((await inkstream.api().put(`/projects/${projectId}/integrations/post-publish-hook`, { url: receiver.url })).status).toBe(200);
  const viewer = await signedInPage(browser, inkstream, { email: 'auditor@crumb.example', role: 'viewer' });
  await viewer.goto(page());
  await viewer.getByText('Your role is viewer').waitFor();
  const hook = section(viewer, 'Post-publish hook');
  await hook.getByRole('button', { name: 'Send a test call' }).waitFor();
  for (const name of ['Send a test call', 'Remove hook', 'Save hook']) expect(await hook.getByRole('button', { name }).isDisabled(), name).toBe(true);
  expect(await hook.getByLabel('Hook URL').isDisabled()).toBe(true);
  expect(await section(viewer, 'GitHub').getByRole('button', { name: 'Connect GitHub' }).isDisabled()).toBe(true);
  expect(await section(viewer, 'Search analytics').getByRole('button', { name: 'Connect search analytics' }).isDisabled()).toBe(true);
  const enabled = await viewer.locator('main button:enabled, main input:enabled, main select:enabled, main textarea:enabled').count();
  expect(enabled).toBe(0);
  await checkPage(viewer, 'integrations-viewer');
});
