import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium, SCREENSHOTS } from '../support/browser.ts';
import { firstStartProcesses } from '../support/firstStartProcess.ts';

/** The application in a real browser, from the link the first start prints to a key used against /api/v1. */
const { start, killAll } = firstStartProcesses();
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  killAll();
});

test.skipIf(!hasChromium)(
  'in a browser: first-start link → set password → sign in → create a key → fetch /api/v1 with it; rotate → the old key is refused; revoke after a confirmation → refused at once',
  { timeout: 180_000 },
  async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const { url, printed } = await start(mkdtempSync(join(tmpdir(), 'ink-browser-')));
    const link = /http:\/\/localhost:\d+(\/set-password#token=[A-Za-z0-9_-]+)/.exec(printed)![1];
    browser = await launchChromium();
    const page = await browser.newPage();

    await page.goto(`${url}${link}`);
    await page.getByLabel('Email (if the link did not come with one)').fill('owner@acme.example');
    await page.getByLabel('Your name').fill('Olga Owner');
    await page.getByLabel('New password (at least 10 characters)').fill('qwertyuiop');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('most common passwords');
    await checkPage(page, 'set-password');
    await page.getByLabel('New password (at least 10 characters)').fill('plum-orchard-lantern-42');
    await page.getByRole('button', { name: 'Set password' }).click();

    await page.waitForURL(/\/sign-in/);
    expect(await page.getByLabel('Email').inputValue()).toBe('owner@acme.example');
    await page.getByLabel('Password').fill('plum-orchard-lantern-42');
    await checkPage(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL(/\/projects$/); // the home page
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'API keys' })
      .click();
    await page.waitForURL(/\/keys/);
    await page.getByLabel('Name of the new key').fill('build server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-secret').textContent())!;
    expect(secret).toMatch(/^ink_[0-9A-Za-z]{49}$/);
    await checkPage(page, 'keys-new-secret');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Copied' }).count()).toBe(1);
    expect(
      await page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
        ).navigator.clipboard.readText(),
      ),
    ).toBe(secret);
    await expect
      .poll(() => page.getByRole('row', { name: /build server/ }).textContent())
      .toContain('Olga Owner');

    const statusWith = (key: string) =>
      page.evaluate(
        async (bearer) =>
          (await fetch('/api/v1/projects', { headers: { authorization: `Bearer ${bearer}` } }))
            .status,
        key,
      );
    expect(await statusWith(secret)).toBe(200);

    await page.getByRole('button', { name: 'Rotate build server' }).click();
    await expect.poll(async () => page.getByTestId('new-secret').textContent()).not.toBe(secret);
    const rotated = (await page.getByTestId('new-secret').textContent())!;
    expect(await statusWith(secret)).toBe(401);
    expect(await statusWith(rotated)).toBe(200);
    await page.screenshot({ path: join(SCREENSHOTS, 'keys-rotated.png'), fullPage: true });

    // Revoke asks first: dismissed, nothing is sent and the key keeps working.
    const revokeRequests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE' && request.url().includes('/app/api/keys/'))
        revokeRequests.push(request.url());
    });
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Revoke build server' }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toMatch(
      /^Revoke the key "build server" \(ink_[0-9A-Za-z]+…\)\? Anything using it gets 401 from now on\.$/,
    );
    expect(await statusWith(rotated)).toBe(200);
    expect(revokeRequests).toEqual([]);
    expect(await page.getByRole('row', { name: /build server/ }).count()).toBe(1);

    // Accepted: the row goes and the key is refused from that moment.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke build server' }).click();
    await expect
      .poll(() => page.getByRole('row', { name: /build server/ }).count(), { timeout: 20_000 })
      .toBe(0);
    expect(revokeRequests).toHaveLength(1);
    expect(await statusWith(rotated)).toBe(401);
    await page.screenshot({ path: join(SCREENSHOTS, 'keys-revoked.png'), fullPage: true });
  },
);
