import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { WEB_DIST } from '../../src/features/application/index.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream();
});
afterAll(() => inkstream.close());

test('no path outside the build is served: traversal, encoded traversal and unknown assets fall through to the 404', async () => {
  for (const path of [
    '/assets/../../package.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/assets/..%2f..%2fpackage.json',
    '/assets/nothing.js',
    '/src/main.tsx',
    '/index.html',
  ]) {
    const response = await fetch(`${inkstream.url}${path}`);
    expect(response.status, path).toBe(404);
    expect(await response.text()).not.toContain('"name": "inkstream"');
  }
  expect((await fetch(`${inkstream.url}/keys`, { method: 'POST' })).status).toBe(404);
});

test('the pages are index.html, revalidated, with a CSP that allows only this origin; hashed assets are cached for a year', async () => {
  for (const path of ['/', '/sign-in', '/set-password', '/keys']) {
    const page = await fetch(`${inkstream.url}${path}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(await page.text()).toContain('<div id="root"></div>');
  }
  const script = readdirSync(join(WEB_DIST, 'assets')).find((name) => name.endsWith('.js'))!;
  const asset = await fetch(`${inkstream.url}/assets/${script}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
});

test("every page of the web app's route table is served at its address, so a reload or a shared link opens it", async () => {
  const table = readFileSync(join(import.meta.dirname, '../../web/src/pages.tsx'), 'utf8');
  const patterns = [...table.matchAll(/\bpath: '([^']+)'/g)].map((match) => match[1]);
  expect(patterns.length).toBeGreaterThan(10);
  for (const pattern of patterns) {
    const path = pattern.replace(/:\w+/g, 'prj_01abc');
    expect((await fetch(`${inkstream.url}${path}`)).status, path).toBe(200);
  }
});
