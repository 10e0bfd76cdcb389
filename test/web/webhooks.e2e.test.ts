import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { signedInMember } from '../support/signedInMember.ts';
import { stopPipeline } from '../support/stopPipeline.ts';
import { startReceiverPool, type Receiver } from '../support/webhookReceiver.ts';

/** The webhooks portal against a real HTTPS receiver: what an owner does, and what a viewer cannot. */
let inkstream: TestInkstream;
let browser: Browser;
let receivers: Awaited<ReturnType<typeof startReceiverPool>>;
let receiver: Receiver;
let endpointId: string;
const MARKUP_DESCRIPTION = '<b>Build</b> relay';
const HOSTILE_ANSWER =
  '<script>window.__answered = true</script><img src=x onerror="window.__answered = true">ok';

beforeAll(async () => {
  if (!hasChromium) return;
  receivers = await startReceiverPool();
  receiver = await receivers.start();
  // A failed attempt waits an hour for its retry, so the test decides when it is sent again (redeliver).
  inkstream = await startInkstream({ env: { INKSTREAM_WEBHOOK_RETRY_DELAYS: '1h' } });
  await stopPipeline(inkstream);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
  await receivers?.close();
});

const rows = (page: Page) => page.getByTestId('delivery-row');

test.skipIf(!hasChromium)(
  'an owner registers an endpoint (secret shown once), sends a test event, filters the log, redelivers and sees the success rate',
  { timeout: 180_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'owner@test.example',
      role: 'owner',
    });
    await page.goto(`${inkstream.url}/webhooks`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Webhooks' })
      .waitFor();
    await page.getByText('article.revised').first().waitFor(); // the catalogue has loaded
    await checkPage(page, 'webhooks-empty');

    await page.getByLabel('Endpoint URL (https)').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill(MARKUP_DESCRIPTION);
    await page
      .getByRole('checkbox', { name: 'Every event type (including types added later)' })
      .uncheck();
    await page.getByRole('checkbox', { name: 'article.published' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    await checkPage(page, 'webhooks-secret');
    await page.getByRole('button', { name: 'I stored it' }).click();
    await page.reload();
    await page.getByRole('link', { name: receiver.url }).waitFor();
    expect(await page.getByText(secret).count()).toBe(0); // never shown again
    expect(await page.getByRole('row', { name: /article\.published/ }).count()).toBe(1);
    expect(await page.locator('.endpoint-description').textContent()).toBe(MARKUP_DESCRIPTION); // shown as text
    expect(await page.locator('main table b').count()).toBe(0);

    await page.getByRole('link', { name: receiver.url }).click();
    await page.waitForURL(/\/webhooks\/whk_/);
    endpointId = page.url().split('/').pop()!;

    receiver.behave(() => ({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: HOSTILE_ANSWER,
    }));
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => rows(page).count(), { timeout: 20_000 }).toBe(1);
    await expect
      .poll(() => page.getByTestId('response-code').first().textContent(), { timeout: 20_000 })
      .toBe('200');
    expect(await page.getByTestId('latency').first().textContent()).toMatch(/^\d+ ms$/);
    expect(await page.getByTestId('response-body').first().textContent()).toBe(HOSTILE_ANSWER); // shown as text
    expect(
      await page.evaluate(() => (globalThis as unknown as { __answered?: boolean }).__answered),
    ).toBeUndefined();
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(receiver.received[0].verified).toBe(true);

    receiver.behave(() => ({ status: 500, body: 'receiver down' }));
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => rows(page).count(), { timeout: 20_000 }).toBe(2);
    await expect
      .poll(() => page.getByTestId('response-code').first().textContent(), { timeout: 20_000 })
      .toBe('500');

    await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('retrying');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await page.getByTestId('response-body').first().textContent()).toBe('receiver down');
    await page
      .getByRole('combobox', { name: 'Filter by event type' })
      .selectOption('article.published');
    await expect.poll(() => page.getByText('No deliveries match these filters.').count()).toBe(1);
    await page.getByRole('combobox', { name: 'Filter by event type' }).selectOption('webhook.test');
    await expect.poll(() => rows(page).count()).toBe(1);

    receiver.behave(() => ({ status: 204 }));
    await page.getByRole('button', { name: /^Redeliver webhook\.test/ }).click();
    await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('succeeded');
    await expect.poll(() => rows(page).count(), { timeout: 20_000 }).toBe(2);
    await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('');

    await page.reload();
    await expect
      .poll(() => page.getByTestId('stats-summary').textContent(), { timeout: 20_000 })
      .toBe('Last 24 hours: 2 of 3 attempts succeeded (67%).');
    await page.locator('.chart canvas').first().waitFor();
    await page.getByText('Figures as a table').click();
    expect(
      await page
        .getByRole('table', { name: /Attempts per hour/ })
        .getByRole('row')
        .count(),
    ).toBe(25); // a header and 24 hours
    await page.getByRole('combobox', { name: 'Period' }).selectOption('7d');
    await expect
      .poll(() => page.getByTestId('stats-summary').textContent())
      .toBe('Last 7 days: 2 of 3 attempts succeeded (67%).');
    await checkPage(page, 'webhooks-endpoint');
  },
);

test.skipIf(!hasChromium)(
  'a viewer reads the portal with every control disabled, and the server refuses the calls anyway',
  { timeout: 120_000 },
  async () => {
    expect(endpointId).toMatch(/^whk_/);
    const page = await signedInPage(browser, inkstream, {
      email: 'viewer@test.example',
      role: 'viewer',
    });
    await page.goto(`${inkstream.url}/webhooks`);
    await page.getByRole('link', { name: receiver.url }).waitFor();
    expect(await page.getByRole('button', { name: 'Add endpoint' }).isDisabled()).toBe(true);
    expect(await page.getByLabel('Endpoint URL (https)').isDisabled()).toBe(true);
    await checkPage(page, 'webhooks-viewer');

    await page.getByRole('link', { name: receiver.url }).click();
    await expect.poll(() => rows(page).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    for (const name of ['Send test event', 'Disable', 'Delete endpoint', 'Save events']) {
      expect(await page.getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
    }
    for (const button of await page.getByRole('button', { name: /^Redeliver/ }).all())
      expect(await button.isDisabled()).toBe(true);
    await checkPage(page, 'webhooks-endpoint-viewer');

    const viewer = await signedInMember(inkstream, {
      email: 'viewer2@test.example',
      role: 'viewer',
    });
    const {
      body: { accessToken },
    } = await viewer.request('POST', '/access-token');
    const v1 = (method: string, path: string, body?: unknown) =>
      fetch(`${inkstream.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const deliveryId = (
      (await (await v1('GET', `/webhooks/${endpointId}/deliveries`)).json()) as {
        deliveries: { id: string }[];
      }
    ).deliveries[0].id;
    const before = receiver.received.length;
    for (const [method, path, body] of [
      ['POST', `/webhooks/${endpointId}/test`],
      ['PATCH', `/webhooks/${endpointId}`, { enabled: false }],
      ['DELETE', `/webhooks/${endpointId}`],
      ['POST', `/webhooks/${endpointId}/deliveries/${deliveryId}/redeliver`],
      ['POST', '/webhooks', { url: receiver.url }],
    ] as const) {
      const response = await v1(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    expect((await inkstream.api().get(`/webhooks/${endpointId}`)).body.webhook.enabled).toBe(true);
    expect(receiver.received.length).toBe(before);
  },
);

test.skipIf(!hasChromium)(
  'an owner changes the subscribed events, disables and enables, then deletes the endpoint after confirming',
  { timeout: 120_000 },
  async () => {
    expect(endpointId).toMatch(/^whk_/);
    const page = await signedInPage(browser, inkstream, {
      email: 'second-owner@test.example',
      role: 'owner',
    });
    const confirmations: string[] = [];
    page.on('dialog', (dialog) => {
      confirmations.push(dialog.message());
    });
    await page.goto(`${inkstream.url}/webhooks/${endpointId}`);
    const description = page.getByRole('textbox', { name: 'Description' });
    await expect.poll(() => description.inputValue()).toBe(MARKUP_DESCRIPTION);
    await description.fill('invoice\u202Etxt.exe');
    await page.getByRole('button', { name: 'Save description' }).click();
    await expect
      .poll(() => page.locator('#endpoint-description-error').textContent())
      .toMatch(/plain text/);
    expect(await description.getAttribute('aria-invalid')).toBe('true');
    await description.fill('Zapier: new articles');
    await page.getByRole('button', { name: 'Save description' }).click();
    await page.getByText('Description saved.').waitFor();
    expect((await inkstream.api().get(`/webhooks/${endpointId}`)).body.webhook.description).toBe(
      'Zapier: new articles',
    );

    await page.getByRole('checkbox', { name: 'article.revised' }).check();
    await page.getByRole('button', { name: 'Save events' }).click();
    await page.getByText('Saved the subscribed events.').waitFor();
    expect((await inkstream.api().get(`/webhooks/${endpointId}`)).body.webhook.events).toEqual([
      'article.published',
      'article.revised',
    ]);

    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await expect.poll(() => page.getByTestId('endpoint-state').textContent()).toMatch(/^Disabled/);
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await expect.poll(() => page.getByTestId('endpoint-state').textContent()).toBe('Enabled');

    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.waitForURL(`${inkstream.url}/webhooks`);
    expect(confirmations).toEqual([expect.stringContaining(receiver.url)]);
    await page.getByText('No endpoints yet.').waitFor();
    expect((await inkstream.api().get(`/webhooks/${endpointId}`)).status).toBe(404);
  },
);

test.skipIf(!hasChromium)(
  'a real pipeline event reaches the endpoint subscribed to it: an article queued through the API shows in the log with its status and response code, the type filter keeps only it, and its catalogue example is JSON naming the type',
  { timeout: 180_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'events-owner@test.example',
      role: 'owner',
    });
    await page.goto(`${inkstream.url}/webhooks`);
    await page.locator('summary', { hasText: 'article.status_changed' }).click();
    const example = JSON.parse(
      (await page.getByLabel('Example article.status_changed delivery').textContent())!,
    );
    expect(example).toMatchObject({
      type: 'article.status_changed',
      id: expect.stringMatching(/^evt_/),
      data: { id: expect.stringMatching(/^art_/), status: expect.any(String) },
    });

    await page.getByLabel('Endpoint URL (https)').fill(receiver.url);
    await page
      .getByRole('checkbox', { name: 'Every event type (including types added later)' })
      .uncheck();
    await page.getByRole('checkbox', { name: 'article.status_changed' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    receiver.secret = (await page.getByTestId('new-secret').textContent())!;
    await page.getByRole('button', { name: 'I stored it' }).click();
    receiver.behave(() => ({ status: 202, body: 'accepted' }));
    await page.getByRole('link', { name: receiver.url }).click();
    await page.waitForURL(/\/webhooks\/whk_/);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => rows(page).count(), { timeout: 20_000 }).toBe(1);

    // The event itself, through the API: writing a topic queues its article (the stopped pipeline leaves it queued).
    const api = inkstream.api();
    const projectId = (
      await api.post('/projects', { name: 'Relay', websiteUrl: 'https://relay.example' })
    ).body.project.id;
    const {
      body: { topic },
    } = await api.post(`/projects/${projectId}/topics`, { title: 'Proofing baskets compared' });
    const {
      body: { article },
    } = await api.post(`/topics/${topic.id}/write`);
    const delivered = rows(page).filter({ hasText: 'article.status_changed' });
    await expect
      .poll(() => delivered.getByTestId('response-code').textContent(), { timeout: 20_000 })
      .toBe('202'); // the log refreshes itself
    expect(await delivered.locator('.status').textContent()).toBe('succeeded');
    expect(await delivered.getByTestId('response-body').textContent()).toBe('accepted');
    const received = receiver.received
      .map((request) => ({
        verified: request.verified,
        event: JSON.parse(request.body.toString('utf8')),
      }))
      .filter(({ event }) => event.type === 'article.status_changed');
    expect(received).toEqual([
      {
        verified: true,
        event: expect.objectContaining({
          data: expect.objectContaining({ id: article.id, status: 'queued', previousStatus: null }),
        }),
      },
    ]);

    const byType = page.getByRole('combobox', { name: 'Filter by event type' });
    await byType.selectOption('article.status_changed');
    await expect
      .poll(() => rows(page).locator('td:nth-child(2)').allTextContents())
      .toEqual(['article.status_changed']);
    await byType.selectOption('webhook.test');
    await expect
      .poll(() => rows(page).locator('td:nth-child(2)').allTextContents())
      .toEqual(['webhook.test']);
    await byType.selectOption('');
    await expect.poll(() => rows(page).count()).toBe(2);
    await checkPage(page, 'webhooks-pipeline-event');
  },
);
