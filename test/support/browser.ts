import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { MemberRole } from '../../src/domain/accounts/members.ts';
import type { TestInkstream } from './inkstream.ts';
import { signedInMember } from './signedInMember.ts';

/**
 * The web application in Debian's Chromium, driven by Playwright. On CI a missing browser fails the
 * run (.ci/run installs it); elsewhere browser tests are skipped until `apt-get install chromium`.
 * INKSTREAM_TEST_CHROMIUM points at another binary (the test of this rule points it nowhere).
 */
export const CHROMIUM = process.env.INKSTREAM_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (process.env.CI === 'true' && !hasChromium)
  throw new Error(`No browser at ${CHROMIUM}: .ci/run installs Debian's chromium package.`);

/** Where screenshots go (gitignored): every page at a desktop and a phone size. */
export const SCREENSHOTS = join(import.meta.dirname, '../../test-screenshots');
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A browser tab signed in as a member of `account` (default `test`, the account of `inkstream.key`)
 * with this role: invited, joined through their link and signed in over HTTP, then the session
 * cookie handed to a fresh browser context. Confirmation dialogs are accepted.
 */
export async function signedInPage(
  browser: Browser,
  inkstream: TestInkstream,
  input: { email: string; role: MemberRole; account?: string },
): Promise<Page> {
  const session = await signedInMember(inkstream, input);
  const [name, value] = session.cookie!.split(/=(.*)/s, 2);
  const context = await browser.newContext({ viewport: SIZES[0] });
  await context.addCookies([{ name, value, url: inkstream.url, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  return page;
}

/**
 * What every page owes its users: an accessibility scan (axe-core) with no serious or critical
 * violation, and screenshots at 1280×800 and 390×844 named after the page.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  // Violations only: axe then builds no selectors or details for the nodes that pass. Legacy mode
  // runs axe.run in the page itself instead of per frame plus a finishing run in a new blank page;
  // the application has no cross-origin frames, the only thing it would skip.
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .setLegacyMode()
    .analyze();
  const serious = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  expect(
    serious.map(
      (violation) =>
        `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
    name,
  ).toEqual([]);
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({
      path: join(SCREENSHOTS, `${name}-${size.width}x${size.height}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize(SIZES[0]);
}
