/**
 * The web app's first page: its JavaScript + CSS gzipped (target ≤ 200 KB) and the time from
 * navigation to a usable sign-in form in headless Chromium (median of ROUNDS cold page loads, each
 * in a fresh browser context so nothing is cached).
 * Run: npx node bench/webApp.bench.ts [ROUNDS]   (needs `npm ci`'s build in web/dist and /usr/bin/chromium)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { WEB_DIST } from '../src/features/application/index.ts';
import { startInkstream } from '../test/support/inkstream.ts';

const rounds = Number(process.argv[2] ?? 10);
const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
const gzipped = assets.map((asset) => ({ asset, bytes: gzipSync(readFileSync(join(WEB_DIST, asset)), { level: 9 }).length }));
const firstPageKB = gzipped.reduce((sum, { bytes }) => sum + bytes, 0) / 1024;

const app = await startInkstream();
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const times: number[] = [];
for (let round = 0; round < rounds; round++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(`${app.url}/sign-in`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
  times.push(performance.now() - started);
  await context.close();
}
await browser.close();
await app.close();

times.sort((a, b) => a - b);
const results = {
  measuredAt: new Date().toISOString(),
  firstPageGzippedKB: Number(firstPageKB.toFixed(1)),
  assets: gzipped,
  firstUsableScreenMs: { median: Number(times[Math.floor(times.length / 2)].toFixed(1)), best: Number(times[0].toFixed(1)), rounds },
};
process.stdout.write(`first page JS + CSS: ${results.firstPageGzippedKB} KB gzipped (target ≤ 200 KB)\n`);
process.stdout.write(`first usable screen (sign-in form), cold: median ${results.firstUsableScreenMs.median} ms, best ${results.firstUsableScreenMs.best} ms over ${rounds} loads\n`);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, 'results', 'webApp.json'), `${JSON.stringify(results, null, 2)}\n`);
