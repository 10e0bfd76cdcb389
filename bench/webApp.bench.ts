/**
 * The web app's first page: its JavaScript + CSS gzipped (target ≤ 200 KB, from web/dist, the files
 * index.html loads) and the time from navigation to a usable screen in headless Chromium, cold (a
 * fresh browser context each load, so nothing is cached): the sign-in form ready, and, signed in,
 * the API keys page showing its table with a key. Baseline, in the same run: a static HTML page as
 * large as index.html and its assets together, with the same form and table, served by a bare
 * node:http server, so the ratio is the cost of loading and starting the app.
 * Run: npx node bench/webApp.bench.ts [ROUNDS]   (needs `npm ci`'s build in web/dist and /usr/bin/chromium)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { WEB_DIST } from '../src/features/application/index.ts';
import { startInkstream } from '../test/support/inkstream.ts';
import { signedInMember } from '../test/support/signedInMember.ts';

const rounds = Number(process.argv[2] ?? 10);
const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
  (match) => match[1],
);
const files = assets.map((asset) => readFileSync(join(WEB_DIST, asset)));
const gzipped = assets.map((asset, i) => ({
  asset,
  bytes: gzipSync(files[i], { level: 9 }).length,
}));
const firstPageKB = gzipped.reduce((sum, { bytes }) => sum + bytes, 0) / 1024;
const appBytes = Buffer.byteLength(html) + files.reduce((sum, file) => sum + file.length, 0);

/** The same screens as static HTML, padded with inert text to the app's size. */
const screen =
  '<main><h1>Sign in</h1><form><label>Email <input type="email"></label><label>Password <input type="password"></label><button type="submit">Sign in</button></form>' +
  '<table><caption>Active keys</caption><tbody><tr><td>bench key</td></tr></tbody></table></main>';
const padding = `<p hidden>${'static text '.repeat(Math.ceil(appBytes / 12))}</p>`;
const staticPage = Buffer.from(
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Static</title></head><body>${screen}${padding}</body></html>`,
);
const bare = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(staticPage);
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;

const app = await startInkstream();
const owner = await signedInMember(app, { email: 'bench@bench.example', role: 'owner' });
await owner.request('POST', '/keys', { name: 'bench key' });
const [cookieName, cookieValue] = owner.cookie!.split(/=(.*)/s, 2);

const browser: Browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
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

/** Median and best of ROUNDS cold loads: navigation until `ready` resolves. */
async function timeLoads(
  url: string,
  ready: (page: Page) => Promise<unknown>,
  prepare?: (context: BrowserContext) => Promise<void>,
) {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const context = await browser.newContext();
    await prepare?.(context);
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(url);
    await ready(page);
    times.push(performance.now() - started);
    await context.close();
  }
  times.sort((a, b) => a - b);
  return {
    median: Number(times[Math.floor(times.length / 2)].toFixed(1)),
    best: Number(times[0].toFixed(1)),
    rounds,
  };
}

const signInReady = (page: Page) =>
  page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
const keysReady = (page: Page) =>
  page.getByRole('row', { name: /bench key/ }).waitFor({ state: 'visible' });
const withSession = (context: BrowserContext) =>
  context.addCookies([
    { name: cookieName, value: cookieValue, url: app.url, httpOnly: true, sameSite: 'Lax' },
  ]);

const signIn = await timeLoads(`${app.url}/sign-in`, signInReady);
const signInBaseline = await timeLoads(bareUrl, signInReady);
const keys = await timeLoads(`${app.url}/keys`, keysReady, withSession);
const keysBaseline = await timeLoads(bareUrl, keysReady);
await browser.close();
await app.close();
bare.close();

const ratio = (a: { median: number }, b: { median: number }) =>
  Number((a.median / b.median).toFixed(2));
const results = {
  measuredAt: new Date().toISOString(),
  loadAverage: (await import('node:os')).loadavg()[0],
  firstPageGzippedKB: Number(firstPageKB.toFixed(1)),
  assets: gzipped,
  baselinePageBytes: staticPage.length,
  signInUsableMs: signIn,
  signInBaselineMs: signInBaseline,
  signInRatio: ratio(signIn, signInBaseline),
  keysTableMs: keys,
  keysBaselineMs: keysBaseline,
  keysRatio: ratio(keys, keysBaseline),
};
process.stdout.write(
  `first page JS + CSS: ${results.firstPageGzippedKB} KB gzipped (target ≤ 200 KB)\n`,
);
process.stdout.write(
  `sign-in form usable, cold: median ${signIn.median} ms (best ${signIn.best}) vs a static page of ${staticPage.length} bytes ${signInBaseline.median} ms: ${results.signInRatio}×\n`,
);
process.stdout.write(
  `signed in, keys table shown, cold: median ${keys.median} ms (best ${keys.best}) vs the static page ${keysBaseline.median} ms: ${results.keysRatio}×\n`,
);
process.stdout.write(`${rounds} loads each, load average ${results.loadAverage.toFixed(1)}\n`);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'webApp.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);
