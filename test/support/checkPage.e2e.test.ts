import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkPage, hasChromium, launchChromium } from './browser.ts';

/** checkPage's scan is tuned for speed (violations only, one run in the page): it must still fail a page that fails its users. */
let browser: Browser;
beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const page = (main: string) =>
  `<!doctype html><html lang="en"><head><title>Scan</title></head><body><main><h1>Scan</h1>${main}</main></body></html>`;

test.skipIf(!hasChromium)(
  'a page with an unlabelled image and button and faint text fails, naming each rule and the element',
  { timeout: 60_000 },
  async () => {
    const tab = await browser.newPage();
    await tab.setContent(
      page(
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button><p style="color:#999;background:#aaa">faint text</p>',
      ),
    );
    const failure = await checkPage(tab, 'support-scan-violations').then(
      () => null,
      (error: { actual?: unknown }) => error,
    );
    const found = String(failure?.actual);
    expect(found).toMatch(/image-alt: [^,]* at img\b/);
    expect(found).toMatch(/button-name: [^,]* at button\b/);
    expect(found).toMatch(/color-contrast: [^,]* at p\b/);
    await tab.close();
  },
);

test.skipIf(!hasChromium)(
  'the same content made accessible passes',
  { timeout: 60_000 },
  async () => {
    const tab = await browser.newPage();
    await tab.setContent(
      page(
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="A loaf"><button>Bake</button><p style="color:#222;background:#fff">clear text</p>',
      ),
    );
    await checkPage(tab, 'support-scan-clean');
    await tab.close();
  },
);
