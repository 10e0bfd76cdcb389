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
