import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { appSession } from '../support/appSession.ts';
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

test.skipIf(!hasChromium)(
  'a signed-out visit to a page comes back to that page after sign-in (never to another site); the navigation shows a viewer no owner-only link',
  { timeout: 90_000 },
  async () => {
    const owner = await signedInPage(browser, inkstream, {
      email: 'owner@test.example',
      role: 'owner',
    });
    await owner.goto(`${inkstream.url}/keys`);
    await expect
      .poll(() =>
        owner
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'API keys' })
          .count(),
      )
      .toBe(1);
    await checkPage(owner, 'shell-keys');

    const viewer = await signedInPage(browser, inkstream, {
      email: 'viewer@test.example',
      role: 'viewer',
    });
    await viewer.goto(`${inkstream.url}/keys`);
    await expect.poll(() => viewer.getByText('(viewer)').count()).toBe(1);
    expect(
      await viewer
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'API keys' })
        .count(),
    ).toBe(0);
    // Opened directly, the keys page offers a viewer or an editor no control: the account has a key an owner could rotate or revoke.
    const editor = await signedInPage(browser, inkstream, {
      email: 'editor@test.example',
      role: 'editor',
    });
    await editor.goto(`${inkstream.url}/keys`);
    for (const nonOwner of [viewer, editor]) {
      await expect
        .poll(() => nonOwner.getByText('Only owners of the account manage API keys.').count(), {
          timeout: 20_000,
        })
        .toBe(1);
      expect(
        await nonOwner.getByRole('button', { name: /create key|rotate|revoke/i }).count(),
      ).toBe(0);
      expect(await nonOwner.getByLabel('Name of the new key').count()).toBe(0);
    }
    expect(await owner.getByRole('button', { name: /^Revoke / }).count()).toBeGreaterThan(0); // what the others must not see

    const stranger = await browser.newPage();
    await stranger.goto(`${inkstream.url}/keys?tab=x`);
    await stranger.waitForURL(/\/sign-in\?next=/);
    await stranger.getByLabel('Email').fill('owner@test.example');
    await stranger.getByLabel('Password').fill('plum-orchard-lantern-42');
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await stranger.waitForURL(/\/keys\?tab=x$/);

    await stranger.goto(
      `${inkstream.url}/sign-in?next=${encodeURIComponent('//evil.example/keys')}`,
    );
    await stranger.getByLabel('Email').fill('owner@test.example');
    await stranger.getByLabel('Password').fill('plum-orchard-lantern-42');
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await stranger.waitForURL(`${inkstream.url}/projects`);
  },
);

test.skipIf(!hasChromium)(
  'the keys page says so when the key list cannot be read, instead of showing an empty list',
  { timeout: 90_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'keys-failing@test.example',
      role: 'owner',
    });
    // The server's answer for the list, as a failing server would give it: the page must not read it as "no keys".
    await page.route('**/app/api/keys', (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({
              error: { code: 'unavailable', message: 'The key store is not reachable; try again.' },
            }),
          })
        : route.continue(),
    );
    await page.goto(`${inkstream.url}/keys`);
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 })
      .toBe('The key store is not reachable; try again.');
  },
);

test.skipIf(!hasChromium)(
  "the keys page counts the account's projects from its plan, and a refused key name is shown on its field",
  { timeout: 90_000 },
  async () => {
    for (const name of ['One', 'Two', 'Three']) {
      expect(
        (
          await inkstream
            .api()
            .post('/projects', { name, websiteUrl: `https://${name.toLowerCase()}.example` })
        ).status,
      ).toBe(201);
    }
    const page = await signedInPage(browser, inkstream, {
      email: 'keys-owner@test.example',
      role: 'owner',
    });
    await page.goto(`${inkstream.url}/keys`);
    await expect
      .poll(() => page.getByText(/ plan, \d+ projects?\.$/).textContent(), { timeout: 20_000 })
      .toMatch(/ plan, 3 projects\.$/);
    // Past the field's own limit (as a script or an old page would send it): the server's refusal lands on the field.
    await page
      .getByLabel('Name of the new key')
      .evaluate((input) =>
        (input as unknown as { removeAttribute(name: string): void }).removeAttribute('maxlength'),
      );
    await page.getByLabel('Name of the new key').fill('y'.repeat(65));
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#key-name-error').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.getByLabel('Name of the new key').getAttribute('aria-invalid')).toBe('true');
  },
);

test.skipIf(!hasChromium)(
  'where the browser keeps the clipboard from the page (plain HTTP on a LAN address), Copy selects the new key and says to press the keys',
  { timeout: 90_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'keys-no-clipboard@test.example',
      role: 'owner',
    });
    // What a page served over http://192.168.x.x gets: no navigator.clipboard at all.
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
    });
    await page.goto(`${inkstream.url}/keys`);
    await page.getByLabel('Name of the new key').fill('lan build');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-secret').textContent({ timeout: 20_000 }))!;
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect
      .poll(() =>
        page.getByRole('status').filter({ hasText: 'does not let the page copy' }).textContent(),
      )
      .toMatch(/The secret is selected: press Ctrl\+C/);
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { getSelection(): { toString(): string } | null })
          .getSelection()
          ?.toString(),
      ),
    ).toBe(secret);
    expect(await page.getByRole('button', { name: 'Copied' }).count()).toBe(0);
    await checkPage(page, 'keys-copy-refused');
  },
);

test.skipIf(!hasChromium)(
  "sign-in puts the server's refusal of the email on the email field, and a throttled email gets one clear message for the form",
  { timeout: 90_000 },
  async () => {
    const page = await browser.newPage();
    await page.goto(`${inkstream.url}/sign-in`);
    // The browser's own check lets `olga@acme` through (no dot needed); the server refuses it.
    await page.getByLabel('Email').fill('olga@acme');
    await page.getByLabel('Password').fill('plum-orchard-lantern-42');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const email = page.getByLabel('Email');
    await expect.poll(() => email.getAttribute('aria-invalid'), { timeout: 20_000 }).toBe('true');
    const describedBy = (await email.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/email/i);
    expect(await page.getByRole('alert').count()).toBe(1); // on the field, not repeated for the form
    await checkPage(page, 'sign-in-email-refused');

    const attempts = appSession(inkstream.url);
    for (let i = 0; i < 10; i++) {
      expect(
        (
          await attempts.request('POST', '/sign-in', {
            email: 'throttled@test.example',
            password: `wrong-password-${i}`,
          })
        ).status,
      ).toBe(401);
    }
    await email.fill('throttled@test.example');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 })
      .toMatch(
        /^Too many sign-in attempts for this email address from your network address\. Try again in \d+ minutes?/,
      );
    expect(await email.getAttribute('aria-invalid')).toBe('false');
    expect(await page.getByRole('alert').count()).toBe(1);
  },
);
