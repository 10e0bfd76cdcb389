import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Stores } from '../../src/app/stores.ts';
import { startWorld, type World } from '../features/publishing/world.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { parseResponse, rawConnection } from '../support/rawHttp.ts';

// While set, the event store fails as a broken disk would, with a message naming internals.
let storeFailure: Error | null = null;
const failingEventStore = (stores: Stores): Stores => ({
  ...stores,
  eventStore: new Proxy(stores.eventStore, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'headPosition') return value.bind(target);
      return async (...args: unknown[]) => {
        if (storeFailure) throw storeFailure;
        return value.apply(target, args);
      };
    },
  }),
});

let w: World;
let brittle: TestInkstream;
beforeAll(async () => {
  [w, brittle] = await Promise.all([
    startWorld(),
    startInkstream({ wrapStores: failingEventStore }),
  ]);
});
afterAll(async () => {
  await Promise.all([w.close(), brittle.close()]);
});

test("every kind of response says nosniff: the API, errors, health checks, 404s and node's own answers", async () => {
  const url = w.app.url;
  const responses = {
    'API 200': await fetch(`${url}/api/v1/projects`, {
      headers: { authorization: `Bearer ${w.app.key}` },
    }),
    'API 401': await fetch(`${url}/api/v1/projects`),
    'API 404': await fetch(`${url}/api/v1/nothing-here`, {
      headers: { authorization: `Bearer ${w.app.key}` },
    }),
    'API 400': await fetch(`${url}/api/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.app.key}`, 'content-type': 'application/json' },
      body: '{',
    }),
    healthz: await fetch(`${url}/healthz`),
    readyz: await fetch(`${url}/readyz`),
    'outside 404': await fetch(`${url}/wp-admin`),
  };
  for (const [what, response] of Object.entries(responses))
    expect({ what, nosniff: response.headers.get('x-content-type-options') }).toEqual({
      what,
      nosniff: 'nosniff',
    });

  const malformed = rawConnection(url);
  await malformed.ready;
  malformed.socket.write('NOT HTTP AT ALL\r\n\r\n');
  const answer = parseResponse(await malformed.answer);
  expect(answer.status).toBe(400);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
});

test('every response that carries a secret says Cache-Control: no-store', async () => {
  const projectId = await w.project();
  const carriers = {
    'webhook created': await w.api.post('/webhooks', {
      url: 'https://hooks.example.com/inkstream',
    }),
    'GitHub connected': await w.connect(projectId),
    'GitHub secret rotated': await w.connect(projectId, { rotateWebhookSecret: true }),
    'hook set': await w.api.put(`/projects/${projectId}/integrations/post-publish-hook`, {
      url: 'https://hooks.example.com/rebuild',
    }),
    'hook secret rotated': await w.api.put(
      `/projects/${projectId}/integrations/post-publish-hook`,
      { url: 'https://hooks.example.com/rebuild', rotateSecret: true },
    ),
  };
  for (const [what, response] of Object.entries(carriers)) {
    expect({
      what,
      status: response.status < 300,
      secret: /"secret":"/.test(JSON.stringify(response.body)),
    }).toEqual({ what, status: true, secret: true });
    expect({ what, cacheControl: response.headers.get('cache-control') }).toEqual({
      what,
      cacheControl: 'no-store',
    });
  }
});

test("/readyz says only ok or failing for each check: the error's text stays in the log", async () => {
  const healthy = await fetch(`${brittle.url}/readyz`);
  expect(healthy.status).toBe(200);
  storeFailure = new Error(
    'SQLITE_IOERR: disk I/O error reading /srv/inkstream-secret-volume/inkstream.sqlite',
  );
  try {
    const response = await fetch(`${brittle.url}/readyz`);
    const text = await response.text();
    expect(response.status).toBe(503);
    expect(JSON.parse(text)).toMatchObject({
      ok: false,
      checks: { eventStore: 'failing', readStore: 'ok' },
    });
    expect(text).not.toMatch(/SQLITE|secret-volume|disk/);
    for (const state of Object.values({
      ...JSON.parse(text).checks,
      ...JSON.parse(text).background,
    }))
      expect(['ok', 'failing']).toContain(state);
  } finally {
    storeFailure = null;
  }
});
