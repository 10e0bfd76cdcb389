import { generateKeyPairSync } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import { advanceArticle } from '../support/articleLife.ts';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { FakeGitHub } from '../support/fakeGitHub.ts';
import { googleError } from '../support/fakeSearchConsole.ts';
import {
  integrationPath,
  PROPERTY,
  startGoogle,
  type Google,
} from '../features/searchAnalytics/world.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { stopPipeline } from '../support/stopPipeline.ts';
import { startReceiverPool, type Receiver } from '../support/webhookReceiver.ts';

/**
 * The integrations page in a real browser, on an account of the free plan (GitHub by pull request
 * and the hook are for every plan; search analytics is not) and one of the pro plan (search
 * analytics): the fake GitHub behind the connection, a local HTTPS receiver as the post-publish
 * hook, the fake Google behind search analytics.
 */
let inkstream: TestInkstream;
let browser: Browser;
let github: FakeGitHub;
let google: Google;
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
  google = await startGoogle();
  // One retry of a refused Search Console call, 1.5 s later: a sync the test slows down stays running that long.
  inkstream = await startInkstream({
    plan: 'free',
    env: {
      GITHUB_API_URL: github.baseUrl,
      ...google.env(),
      INKSTREAM_SEARCH_RETRY_DELAYS_MS: '1500',
    },
  });
  await stopPipeline(inkstream);
  projectId = (
    await inkstream.api().post('/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' })
  ).body.project.id;
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
  await receivers?.close();
  await github?.close();
  await google?.close();
});

const page = () => `${inkstream.url}/projects/${projectId}/integrations`;
const section = (tab: Page, name: string) => tab.getByRole('region', { name });
/** The message the page tied to a control (aria-describedby), as a screen reader would read it. */
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
  'an owner connects GitHub (a wrong token is refused on its field), sees the webhook secret once, sets the hook and sends it a test call, and is told which plan has search analytics',
  { timeout: 300_000 },
  async () => {
    const owner = await signedInPage(browser, inkstream, {
      email: 'owner@crumb.example',
      role: 'owner',
    });
    await owner.goto(page());
    await owner.getByRole('heading', { name: 'Integrations of Crumb' }).waitFor();
    await expect
      .poll(() =>
        owner
          .getByRole('navigation', { name: 'Project' })
          .getByRole('link', { name: 'Integrations' })
          .getAttribute('aria-current'),
      )
      .toBe('page');
    await checkPage(owner, 'integrations-empty');

    const gh = section(owner, 'GitHub');
    await gh.getByLabel('Repository (owner/name)').fill('acme/site');
    await gh.getByLabel('Token', { exact: true }).fill('ghp_wrong');
    await gh.getByRole('button', { name: 'Connect GitHub' }).click();
    await expect
      .poll(() => describedBy(owner, 'Token'), { timeout: 15_000 })
      .toMatch(/GitHub rejected the credential/);
    expect(await gh.getByLabel('Token', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect((await inkstream.api().get(`/projects/${projectId}/integrations/github`)).status).toBe(
      404,
    );
    await checkPage(owner, 'integrations-github-refused');

    await gh.getByLabel('Token', { exact: true }).fill('ghp_writer');
    await gh.getByRole('button', { name: 'Connect GitHub' }).click();
    const secret = gh.getByTestId('new-secret');
    await secret.waitFor({ timeout: 15_000 });
    expect(await secret.textContent()).toMatch(/^[0-9a-f]{64}$/);
    expect(await gh.getByTestId('github-webhook-url').textContent()).toBe(
      `${inkstream.url}/api/v1/integrations/github/events`,
    );
    expect(
      (await inkstream.api().get(`/projects/${projectId}/integrations/github`)).body.github,
    ).toMatchObject({ repository: 'acme/site', credentials: { type: 'token' } });
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
    await search
      .getByLabel('Service account private key')
      .fill(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    await search.getByRole('button', { name: 'Connect search analytics' }).click();
    await expect
      .poll(() => search.getByTestId('plans-including').textContent(), { timeout: 15_000 })
      .toBe('pro, unlimited');
    expect(await search.getByRole('alert').first().textContent()).toContain(
      'The free plan does not include search analytics',
    );
    await checkPage(owner, 'integrations-search-plan-limit');

    await gh.getByRole('button', { name: 'Disconnect GitHub' }).click();
    await gh.getByText('Not connected').waitFor({ timeout: 15_000 });
    expect((await inkstream.api().get(`/projects/${projectId}/integrations/github`)).status).toBe(
      404,
    );
  },
);

test.skipIf(!hasChromium)(
  'a viewer sees the integrations with every control that changes something disabled',
  { timeout: 120_000 },
  async () => {
    expect(
      (
        await inkstream
          .api()
          .put(`/projects/${projectId}/integrations/post-publish-hook`, { url: receiver.url })
      ).status,
    ).toBe(200);
    const viewer = await signedInPage(browser, inkstream, {
      email: 'auditor@crumb.example',
      role: 'viewer',
    });
    await viewer.goto(page());
    await viewer.getByText('Your role is viewer').waitFor();
    const hook = section(viewer, 'Post-publish hook');
    await hook.getByRole('button', { name: 'Send a test call' }).waitFor();
    for (const name of ['Send a test call', 'Remove hook', 'Save hook'])
      expect(await hook.getByRole('button', { name }).isDisabled(), name).toBe(true);
    expect(await hook.getByLabel('Hook URL').isDisabled()).toBe(true);
    expect(
      await section(viewer, 'GitHub').getByRole('button', { name: 'Connect GitHub' }).isDisabled(),
    ).toBe(true);
    expect(
      await section(viewer, 'Search analytics')
        .getByRole('button', { name: 'Connect search analytics' })
        .isDisabled(),
    ).toBe(true);
    const enabled = await viewer
      .locator(
        'main button:enabled, main input:enabled, main select:enabled, main textarea:enabled',
      )
      .count();
    expect(enabled).toBe(0);
    await checkPage(viewer, 'integrations-viewer');
  },
);

test.skipIf(!hasChromium)(
  'an owner connects a GitHub App installation: a key that is not one and a wrong installation id are refused on their fields and save nothing',
  { timeout: 120_000 },
  async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    github.addAppInstallation({
      appId: 4321,
      slug: 'inkstream',
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      installationId: 77,
      repositories: ['acme/site'],
      permissions: { contents: 'write', pull_requests: 'write', issues: 'write' },
    });
    const owner = await signedInPage(browser, inkstream, {
      email: 'app-owner@crumb.example',
      role: 'owner',
    });
    await owner.goto(page());
    const gh = section(owner, 'GitHub');
    await gh.getByText(/^Not connected/).waitFor();
    await gh.getByLabel('Repository (owner/name)').fill('acme/site');
    await gh.getByLabel('Credential', { exact: true }).selectOption('app');
    await gh.getByLabel('App ID').fill('4321');
    await gh.getByLabel('Installation ID').fill('77');
    await gh
      .getByLabel('Private key (PEM)')
      .fill('-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----');
    await gh.getByRole('button', { name: 'Connect GitHub' }).click();
    await expect
      .poll(() => describedBy(owner, 'Private key (PEM)'), { timeout: 15_000 })
      .toMatch(/private key could not be used/);

    await gh
      .getByLabel('Private key (PEM)')
      .fill(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    await gh.getByLabel('Installation ID').fill('78');
    await gh.getByRole('button', { name: 'Connect GitHub' }).click();
    await expect
      .poll(() => describedBy(owner, 'Installation ID'), { timeout: 15_000 })
      .toMatch(/installation was not found: check the installation id/);
    expect(await gh.getByLabel('Installation ID').getAttribute('aria-invalid')).toBe('true');
    expect(await gh.getByLabel('Repository (owner/name)').getAttribute('aria-invalid')).toBe(
      'false',
    );
    expect(await gh.getByLabel('Private key (PEM)').getAttribute('aria-invalid')).toBe('false');
    expect((await inkstream.api().get(`/projects/${projectId}/integrations/github`)).status).toBe(
      404,
    );
    await checkPage(owner, 'integrations-github-app-refused');

    await gh.getByLabel('Installation ID').fill('77');
    await gh.getByRole('button', { name: 'Connect GitHub' }).click();
    await gh.getByTestId('new-secret').waitFor({ timeout: 15_000 });
    await gh.getByText('GitHub App 4321, installation 77', { exact: true }).waitFor();
    expect(await gh.getByText('acme/site', { exact: true }).count()).toBe(1);
    expect(
      (await inkstream.api().get(`/projects/${projectId}/integrations/github`)).body.github
        .credentials,
    ).toEqual({ type: 'app', appId: '4321', installationId: 77 });
    await checkPage(owner, 'integrations-github-app-connected');
  },
);

test.skipIf(!hasChromium)(
  'on a plan with search analytics an owner connects a property (markup refused and shown as text, Google\'s 403 on the Property field), and sees the sync and a "Sync now" finish with what they counted',
  { timeout: 180_000 },
  async () => {
    const proKey = await inkstream.newKey('bakery', 'pro');
    const pro = inkstream.api(proKey);
    const bakeryId = (
      await pro.post('/projects', { name: 'Bakery', websiteUrl: 'https://crumb.example' })
    ).body.project.id;
    const {
      body: { topic },
    } = await pro.post(`/projects/${bakeryId}/topics`, { title: 'Sourdough starter basics' });
    const {
      body: { article },
    } = await pro.post(`/topics/${topic.id}/write`);
    await advanceArticle(inkstream.platform, accountIdForName('bakery'), article.id, 'merged'); // published as https://crumb.example/blog/hello

    const owner = await signedInPage(browser, inkstream, {
      email: 'owner@bakery.example',
      role: 'owner',
      account: 'bakery',
    });
    await owner.goto(`${inkstream.url}/projects/${bakeryId}/integrations`);
    const search = section(owner, 'Search analytics');
    await search
      .getByText('Not connected: articles show no search figures.')
      .waitFor({ timeout: 30_000 });
    const { clientEmail, privateKey } = google.serviceAccount;
    await search.getByLabel('Service account email').fill(clientEmail);
    await search.getByLabel('Service account private key').fill(privateKey);
    const connect = async (property: string) => {
      await search.getByLabel('Property', { exact: true }).fill(property);
      await search.getByRole('button', { name: 'Connect search analytics' }).click();
    };

    const askedBefore = google.calls.length;
    await connect('sc-domain:"><b>crumb</b>');
    await expect
      .poll(() => describedBy(owner, 'Property'), { timeout: 15_000 })
      .toMatch(/sc-domain:example\.com for a Domain property/);
    expect(google.calls.length).toBe(askedBefore); // refused before Google is asked

    // A URL-prefix property passes the schema with markup in its path; the articles' URLs are not under it, and the message quoting it is text.
    const markup = 'https://crumb.example/"><img src=x onerror="window.__hostile = true">/';
    await connect(markup);
    // No pattern was typed, so the property is what to fix: the message is on its field.
    await expect
      .poll(() => describedBy(owner, 'Property'), { timeout: 15_000 })
      .toContain(`which Search Console does not report under ${markup}.`);
    expect(await search.locator('img, b').count()).toBe(0);
    expect(
      await owner.evaluate(() => (globalThis as { __hostile?: boolean }).__hostile),
    ).toBeUndefined();
    expect(google.calls.length).toBe(askedBefore);

    await connect(PROPERTY); // Google answers 403 until the service account is a user of the property
    await expect
      .poll(() => describedBy(owner, 'Property'), { timeout: 15_000 })
      .toContain(`Add ${clientEmail} as a user: in Search Console open the property`);
    expect(await search.getByLabel('Property', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await search.getByLabel('Service account email').getAttribute('aria-invalid')).toBe(
      'false',
    );
    expect(google.callsOf('site').at(-1)).toMatchObject({ siteUrl: PROPERTY, status: 403 });
    expect((await pro.get(integrationPath(bakeryId))).status).toBe(404);
    await checkPage(owner, 'integrations-search-refused');

    google.setUser(PROPERTY, clientEmail, 'siteFullUser');
    google.failNext('query', googleError.rateLimited()); // the first sync is retried 1.5 s later: the page sees it running
    await connect(PROPERTY);
    const lastSync = search.getByTestId('last-sync');
    await expect
      .poll(() => lastSync.textContent(), { timeout: 30_000 })
      .toMatch(/^completed, .+: 1 article, 0 with traffic$/);
    // The rate-limited call retried, then the period's totals and queries and the daily figures.
    expect(google.callsOf('query').map((call) => call.status)).toEqual([429, 200, 200, 200]);
    const facts = async () => {
      const [terms, values] = await Promise.all([
        search.locator('dl.facts dt').allTextContents(),
        search.locator('dl.facts dd').allTextContents(),
      ]);
      return Object.fromEntries(terms.map((term, index) => [term, values[index]]));
    };
    expect(await facts()).toMatchObject({
      Property: PROPERTY,
      Credential: `service account ${clientEmail}`,
      Status: 'working',
      'Article URLs': 'https://crumb.example/blog/your-article-slug',
    });

    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    google.addRows(PROPERTY, [
      {
        date: day(10),
        page: 'https://crumb.example/blog/hello',
        query: 'sourdough starter',
        clicks: 12,
        impressions: 300,
        position: 3.5,
      },
    ]);
    await search.getByRole('button', { name: 'Sync now' }).click();
    await expect
      .poll(() => lastSync.textContent(), { timeout: 30_000 })
      .toMatch(/^completed, .+: 1 article, 1 with traffic$/);
    const connection = (await pro.get(integrationPath(bakeryId))).body.searchAnalytics;
    expect(connection.lastSync).toMatchObject({
      trigger: 'api',
      status: 'completed',
      articles: 1,
      withTraffic: 1,
    });
    expect(await lastSync.locator('time').getAttribute('datetime')).toBe(
      connection.lastSync.finishedAt,
    );
    await checkPage(owner, 'integrations-search-synced');

    // Connecting again (a new credential) starts from the current property and pattern, so a pattern set before is kept.
    await search.getByText('Change the connection').click();
    const again = search.getByRole('form', { name: 'Connect search analytics' });
    expect(await again.getByLabel('Property', { exact: true }).inputValue()).toBe(PROPERTY);
    expect(await again.getByLabel('Article URL pattern (optional)').inputValue()).toBe(
      connection.urlPattern,
    );
  },
);
