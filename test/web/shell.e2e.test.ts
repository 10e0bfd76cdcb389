import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let inkstream: TestInkstream;
let browser: Browser;
beforeAll(async () => {
  if (!hasChromium) return;
  inkstream = await startInkstream();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
});

test.skipIf(!hasChromium)('a signed-out visit to a page comes back to that page after sign-in (never to another site); the navigation shows a viewer no owner-only link', { timeout: 90_000 }, async () => {
  const owner = await signedInPage(browser, inkstream, { email: 'owner@test.example', role: 'owner' });
  await owner.goto(`${inkstream.url}/keys`);
  await expect.poll(() => owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).count()).toBe(1);
  await checkPage(owner, 'shell-keys');

  const viewer = await signedInPage(browser, inkstream, { email: 'viewer@test.example', role: 'viewer' });
  await viewer.goto(`${inkstream.url}/keys`);
  await expect.poll(() => viewer.getByText('(viewer)').count()).toBe(1);
  expect(await viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).count()).toBe(0);

  const stranger = await browser.newPage();
  await stranger.goto(`${inkstream.url}/keys?tab=x`);
  await stranger.waitForURL(/\/sign-in\?next=/);
  await stranger.getByLabel('Email').fill('owner@test.example');
  await stranger.getByLabel('Password').fill('plum-orchard-lantern-42');
  await stranger.getByRole('button', { name: 'Sign in' }).click();
  await stranger.waitForURL(/\/keys\?tab=x$/);

  await stranger.goto(`${inkstream.url}/sign-in?next=${encodeURIComponent('//evil.example/keys')}`);
  await stranger.getByLabel('Email').fill('owner@test.example');
  await stranger.getByLabel('Password').fill('plum-orchard-lantern-42');
  await stranger.getByRole('button', { name: 'Sign in' }).click();
  await stranger.waitForURL(`${inkstream.url}/projects`);
});

test.skipIf(!hasChromium)('the keys page says so when the key list cannot be read, instead of showing an empty list', { timeout: 90_000 }, async () => {
  const page = await signedInPage(browser, inkstream, { email: 'keys-failing@test.example', role: 'owner' });
  // The server's answer for the list, as a failing server would give it: the page must not read it as "no keys".
  await page.route('**/app/api/keys', (route) => (route.request().method() === 'GET'
    ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'unavailable', message: 'The key store is not reachable; try again.' } }) })
    : route.continue()));
  await page.goto(`${inkstream.url}/keys`);
  await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 }).toBe('The key store is not reachable; try again.');
});

test.skipIf(!hasChromium)('the keys page counts the account\'s projects from its plan, and a refused key name is shown on its field', { timeout: 90_000 }, async () => {
  for (const name of ['One', 'Two', 'Three']) {
    expect((await inkstream.api().post('/projects', { name, websiteUrl: `https://${name.toLowerCase()}.example` })).status).toBe(201);
  }
  const page = await signedInPage(browser, inkstream, { email: 'keys-owner@test.example', role: 'owner' });
  await page.goto(`${inkstream.url}/keys`);
  await expect.poll(() => page.getByText(/ plan, \d+ projects?\.$/).textContent(), { timeout: 20_000 }).toMatch(/ plan, 3 projects\.$/);
  // Past the field's own limit (as a script or an old page would send it): the server's refusal lands on the field.
  await page.getByLabel('Name of the new key').evaluate((input) => (input as unknown as { removeAttribute(name: string): void }).removeAttribute('maxlength'));
  await page.getByLabel('Name of the new key').fill('y'.repeat(65));
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect.poll(() => page.locator('#key-name-error').count(), { timeout: 20_000 }).toBe(1);
  expect(await page.getByLabel('Name of the new key').getAttribute('aria-invalid')).toBe('true');
});
