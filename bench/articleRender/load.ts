import type { Browser } from 'playwright-core';
import { RENDERED, renderedProbe, type RenderedTimes } from './renderedProbe.ts';
import { LAST_PARAGRAPH } from './setup.ts';

export type Cookie = {
  name: string;
  value: string;
  url: string;
  httpOnly: boolean;
  sameSite: 'Lax';
};

/**
 * One cold load (a fresh browser context: no cache, no code cache) until the last paragraph is
 * painted (and, on the article page, the app's own body too): the in-page times of renderedProbe.ts, and `wallMs`, the harness's goto → RENDERED,
 * which adds Playwright's and the browser's own overhead to both pages alike.
 */
export async function loadOnce(
  browser: Browser,
  url: string,
  cookie?: Cookie,
): Promise<RenderedTimes & { wallMs: number }> {
  const app = cookie !== undefined; // the article page (signed in) also times the app's own body
  const context = await browser.newContext();
  try {
    if (cookie) await context.addCookies([cookie]);
    await context.addInitScript(renderedProbe, { last: LAST_PARAGRAPH, signal: RENDERED, app });
    const page = await context.newPage();
    const rendered = page.waitForEvent('console', {
      predicate: (message) => message.text() === RENDERED,
      timeout: 60_000,
    });
    const started = performance.now();
    await page.goto(url);
    await rendered;
    const wallMs = performance.now() - started;
    const times = (await page.evaluate('window.__rendered')) as RenderedTimes;
    return { ...times, wallMs };
  } finally {
    await context.close();
  }
}
