import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createWebApp } from '../../src/http/webApp.ts';
import { startHttpServer, type LocalServer } from '../support/httpServer.ts';

let server: LocalServer;
const dist = mkdtempSync(join(tmpdir(), 'ink-dist-'));
beforeAll(async () => {
  writeFileSync(join(dist, 'index.html'), '<div id="root"></div>');
  const web = createWebApp(dist, ['/', '/projects/:projectId/brand']);
  server = await startHttpServer((req, res) => {
    if (!web(req, res)) {
      res.statusCode = 404;
      res.end('next');
    }
  });
});
afterAll(() => server.close());

test('a page pattern serves index.html for one plain segment in its parameter, and nothing else', async () => {
  const status = async (path: string) => (await fetch(`${server.origin}${path}`)).status;
  expect(await status('/projects/prj_01H8XYZ/brand')).toBe(200);
  expect(await status('/')).toBe(200);
  for (const path of [
    '/projects//brand',
    '/projects/a/b/brand',
    '/projects/a%2Fb/brand',
    '/projects/..%2F..%2Fpackage.json/brand',
    '/projects/prj_1/brand/extra',
    '/projects/prj_1',
    '/projects/prj_1/brandx',
  ]) {
    expect(await status(path), path).toBe(404);
  }
});

test('an asset asked for before it exists is served once it does: a miss is not remembered, so unknown names grow nothing', async () => {
  expect((await fetch(`${server.origin}/assets/late-abc123.js`)).status).toBe(404);
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'assets', 'late-abc123.js'), 'export {};');
  expect((await fetch(`${server.origin}/assets/late-abc123.js`)).status).toBe(200);
});
