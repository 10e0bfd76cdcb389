import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../src/core/clock.ts';
import { checkPage, hasChromium, launchChromium, signedInPage } from '../support/browser.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

const PASSWORD = 'plum-orchard-lantern-42';
/** The machine is shared and loaded: a page gets this long to show what it should. */
const soon = { timeout: 20_000 };
const clock = manualClock(new Date().toISOString());
let inkstream: TestInkstream;
let browser: Browser;
beforeAll(async () => {
  if (!hasChromium) return;
  inkstream = await startInkstream({ clock, plan: 'free' });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await inkstream?.close();
});

async function signInHere(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.skipIf(!hasChromium)(
  'an owner invites a viewer (the link shown once), the viewer joins and reads the members, the owner changes the role, then removes them; the last owner is refused',
  { timeout: 120_000 },
  async () => {
    const owner = await signedInPage(browser, inkstream, {
      email: 'olga@test.example',
      role: 'owner',
    });
    await owner.goto(`${inkstream.url}/members`);
    const invite = owner.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('Email').fill('olga@test.example');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await expect
      .poll(() => owner.getByRole('alert').textContent(), soon)
      .toContain('already belongs to a member');
    expect(await invite.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');

    await invite.getByLabel('Email').fill('vera@test.example');
    await invite.getByLabel('Name (optional)').fill('Vera Viewer');
    await invite.getByLabel('Role').selectOption('viewer');
    await invite.getByRole('button', { name: 'Invite' }).click();
    const link = (await owner.getByTestId('invite-link').textContent())!;
    expect(link).toMatch(/\/set-password#token=[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => owner.getByText('Inkstream sends no email').count(), soon).toBe(1);
    await expect
      .poll(() => owner.getByRole('row', { name: /Vera Viewer/ }).textContent(), soon)
      .toContain('not joined yet');
    await checkPage(owner, 'members-owner');

    const viewerContext = await browser.newContext();
    const viewer = await viewerContext.newPage();
    await viewer.goto(`${inkstream.url}${new URL(link).pathname}${new URL(link).hash}`);
    await viewer.getByLabel('New password (at least 10 characters)').fill(PASSWORD);
    await viewer.getByRole('button', { name: 'Set password' }).click();
    await viewer.waitForURL(/\/sign-in/);
    await signInHere(viewer, 'vera@test.example');
    await viewer.waitForURL(/\/projects$/); // the home
    await viewer
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Members' })
      .click();
    await expect
      .poll(() => viewer.getByRole('row', { name: /olga@test\.example/ }).count(), soon)
      .toBe(1);
    expect(await viewer.getByRole('button', { name: 'Invite' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: /Remove/ }).count()).toBe(0);
    expect(await viewer.getByRole('combobox').count()).toBe(0);
    await checkPage(viewer, 'members-viewer');

    await owner.reload();
    await expect
      .poll(() => owner.getByRole('row', { name: /Vera Viewer/ }).textContent(), soon)
      .toContain('joined');
    await owner.getByLabel('Role of Vera Viewer', { exact: true }).selectOption('editor');
    await owner.getByRole('button', { name: 'Save the role of Vera Viewer' }).click();
    await viewer.reload();
    await expect.poll(() => viewer.getByText('(editor)').count(), soon).toBe(1);

    const ownerRow = owner.getByRole('row', { name: /olga@test\.example/ });
    await owner.getByRole('combobox', { name: /^Role of (Olga|olga)/ }).selectOption('viewer');
    await owner.getByRole('button', { name: /^Save the role of (Olga|olga)/ }).click();
    await expect
      .poll(() => ownerRow.getByRole('alert').textContent(), soon)
      .toContain('last owner');

    await owner.getByRole('button', { name: 'Remove Vera Viewer' }).click(); // the confirmation is accepted
    await expect.poll(() => owner.getByRole('row', { name: /Vera Viewer/ }).count(), soon).toBe(0);
    await viewer.reload();
    await viewer.waitForURL(/\/sign-in\?next=%2Fmembers/);
    await viewerContext.close();
  },
);

test.skipIf(!hasChromium)(
  "plan and usage: the free plan's projects against the cap and the plan that lifts it",
  { timeout: 90_000 },
  async () => {
    expect(
      (
        await inkstream
          .api()
          .post('/projects', { name: 'Site', websiteUrl: 'https://site.example' })
      ).status,
    ).toBe(201);
    const editor = await signedInPage(browser, inkstream, {
      email: 'ed@test.example',
      role: 'editor',
    });
    await editor.goto(`${inkstream.url}/account`);
    const projects = editor.getByRole('row', { name: /^Projects/ });
    await expect.poll(() => projects.textContent(), soon).toContain('1 of 1');
    expect(await projects.textContent()).toContain('limit reached');
    expect(await projects.textContent()).toContain('the pro plan');
    expect(await editor.getByRole('row', { name: /^Articles this month/ }).textContent()).toContain(
      '0 of 10',
    );
    await checkPage(editor, 'account-plan');
  },
);

test.skipIf(!hasChromium)(
  'your sessions: this one is marked; revoking another sends that browser to sign-in; revoking this one signs out',
  { timeout: 120_000 },
  async () => {
    const here = await signedInPage(browser, inkstream, {
      email: 'sam@test.example',
      role: 'editor',
    });
    const elsewhereContext = await browser.newContext({
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
    });
    const elsewhere = await elsewhereContext.newPage();
    await elsewhere.goto(`${inkstream.url}/members`);
    await elsewhere.waitForURL(/\/sign-in/);
    await signInHere(elsewhere, 'sam@test.example');
    await elsewhere.waitForURL(/\/members$/);

    await here.goto(`${inkstream.url}/sessions`);
    await expect
      .poll(() => here.getByRole('row', { name: /Firefox on Windows/ }).count(), soon)
      .toBe(1);
    expect(await here.getByRole('row', { name: /this session/ }).count()).toBe(1);
    await checkPage(here, 'sessions');

    await here.getByRole('button', { name: /^Revoke the session in Firefox on Windows/ }).click();
    await expect
      .poll(() => here.getByRole('row', { name: /Firefox on Windows/ }).count(), soon)
      .toBe(0);
    await elsewhere.evaluate("window.dispatchEvent(new Event('focus'))"); // the person comes back to that tab
    await elsewhere.waitForURL(/\/sign-in\?next=%2Fmembers/);
    await elsewhereContext.close();

    await here.getByRole('button', { name: 'Sign out here: revoke this session' }).click();
    await here.waitForURL(/\/sign-in\?next=%2Fsessions/);
    await here.goto(`${inkstream.url}/account`);
    await here.waitForURL(/\/sign-in\?next=%2Faccount/);
  },
);

test.skipIf(!hasChromium)(
  'a session that expires while a page is open returns to sign-in, and signing in comes back to the same page',
  { timeout: 90_000 },
  async () => {
    const page = await signedInPage(browser, inkstream, {
      email: 'idle@test.example',
      role: 'owner',
    });
    await page.goto(`${inkstream.url}/members`);
    await expect
      .poll(() => page.getByRole('row', { name: /idle@test\.example/ }).count(), soon)
      .toBe(1);

    clock.advance(12 * 60 * 60 * 1000 + 1000); // twelve hours without a request: the session is over
    await page.getByLabel('Email').fill('someone@test.example');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.waitForURL(/\/sign-in\?next=%2Fmembers$/);
    await signInHere(page, 'idle@test.example');
    await page.waitForURL(/\/members$/);
    await expect
      .poll(() => page.getByRole('row', { name: /idle@test\.example/ }).count(), soon)
      .toBe(1);
    expect((await inkstream.api().get('/plan')).status).toBe(200); // nothing else was touched by the refused invite
    const members = await inkstream.platform.readStore.find('member_profiles', {
      filter: {},
      limit: 200,
    });
    expect(JSON.stringify(members)).not.toContain('someone@test.example');
  },
);

test.skipIf(!hasChromium)(
  "an owner who steps down to editor loses the owner's controls at once, without a reload",
  { timeout: 90_000 },
  async () => {
    await signedInPage(browser, inkstream, { email: 'other-owner@test.example', role: 'owner' }); // so this one is not the last owner
    const owner = await signedInPage(browser, inkstream, {
      email: 'stepping@test.example',
      role: 'owner',
    });
    await owner.goto(`${inkstream.url}/members`);
    await expect
      .poll(() => owner.getByRole('form', { name: 'Invite a member' }).count(), soon)
      .toBe(1);
    await owner
      .getByRole('combobox', { name: /^Role of (stepping|Stepping)/ })
      .selectOption('editor');
    await owner.getByRole('button', { name: /^Save the role of (stepping|Stepping)/ }).click();
    await expect
      .poll(() => owner.getByRole('form', { name: 'Invite a member' }).count(), soon)
      .toBe(0);
    expect(await owner.getByRole('combobox').count()).toBe(0);
    expect(await owner.getByText('Only owners of the account invite members').count()).toBe(1);
    expect(
      await owner.getByRole('row', { name: /stepping@test\.example/ }).textContent(),
    ).toContain('editor');
    expect(
      await owner
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'API keys' })
        .count(),
    ).toBe(0);
  },
);
