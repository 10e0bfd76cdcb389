import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { allRoutes } from '../../src/app/features.ts';
import { encodeCursor } from '../../src/readstore/cursor.ts';
import type { FindOptions } from '../../src/readstore/port.ts';
import { EMBEDDED_DB_FILE } from '../../src/app/stores.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { findPlans, slowSteps } from '../support/queryPlan.ts';
import { routeKey } from '../support/routeSamples.ts';

/**
 * Every list endpoint, found through the route declarations (a GET whose answer carries a
 * nextCursor), is called over HTTP with each of its filters and with cursors; every find the read
 * store runs meanwhile has its SQLite query plan checked: no full scan, no sort in a temporary
 * b-tree. Such a page then costs the same on a store of a million rows as on an empty one.
 */

// These page through one stream of the event log, not a read model: their cost is the stream's length.
const PAGED_FROM_THE_LOG = new Set([
  'GET /articles/:id/history',
  'GET /topics/:id/history',
  'GET /projects/:id/history',
  'GET /projects/:id/integrations/history',
]);

// These do not page through the read store: the site corpus's passages are searched in its own file
// (FTS5, docs/site-corpus.md); decay findings are read only with a working Search Console
// connection, which this store has not (their one query has its index: { projectId, property, rank }).
const NOT_FROM_THE_READ_STORE_HERE = new Set([
  'GET /projects/:id/pages',
  'GET /projects/:id/decay',
]);

type Schema = { shape?: Record<string, Schema>; unwrap?: () => Schema; options?: unknown[] };

const listRoutes = allRoutes.filter(
  (route) =>
    route.method === 'get' &&
    'nextCursor' in ((route.responses[200] as Schema | undefined)?.shape ?? {}),
);

/** The first value of each optional enum query field (a status, an event type): one request per filter. */
function filterValues(query: Schema | undefined): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const [name, schema] of Object.entries(query?.shape ?? {})) {
    const options = (schema.unwrap?.() ?? schema).options;
    if (Array.isArray(options) && typeof options[0] === 'string')
      found.push({ [name]: options[0] });
  }
  return found;
}

let app: TestInkstream;
const finds: { collection: string; options: FindOptions }[] = [];
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startInkstream({
    wrapStores: (stores) => ({
      ...stores,
      readStore: {
        ...stores.readStore,
        find(collection, options) {
          // Only the finds of a route's handler (src/**/*api.ts), not those of the background workers meanwhile.
          if (/[aA]pi\.ts:/.test(new Error().stack ?? '')) finds.push({ collection, options });
          return stores.readStore.find(collection, options);
        },
      },
    }),
  });
  const api = app.api();
  const {
    body: { project },
  } = await api.post('/projects', { name: 'Plans', websiteUrl: 'https://plans.example' });
  const topics = [];
  for (const title of ['One', 'Two', 'Three'])
    topics.push((await api.post(`/projects/${project.id}/topics`, { title })).body.topic);
  await api.post(`/topics/${topics[0].id}/write`);
  const {
    body: { webhook },
  } = await api.post('/webhooks', { url: 'https://127.0.0.1:9/hook' });
  ids.projects = project.id;
  ids.webhooks = webhook.id;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

test('the route declarations name the list endpoints this test walks', () => {
  expect(listRoutes.map(routeKey)).toEqual(
    expect.arrayContaining([
      'GET /projects',
      'GET /projects/:id/topics',
      'GET /projects/:id/articles',
      'GET /webhooks',
      'GET /webhooks/:id/deliveries',
      'GET /events',
    ]),
  );
});

test.each(
  listRoutes
    .filter(
      (route) =>
        !PAGED_FROM_THE_LOG.has(routeKey(route)) &&
        !NOT_FROM_THE_READ_STORE_HERE.has(routeKey(route)),
    )
    .map((route) => [routeKey(route), route] as const),
)(
  '%s reads each page from one index: no full scan, no sort of the matches',
  async (_key, route) => {
    const path = route.path.replace(':id', ids[route.path.split('/')[1]] ?? 'none');
    // Cursors after a value, after a missing value, and (for the feed) after an event it returned.
    const cursors = [
      encodeCursor({ key: '2026-01-01T00:00:00.000Z', id: 'zzz' }),
      encodeCursor({ key: null, id: 'zzz' }),
    ];
    const queries: string[] = [];
    for (const filter of [{}, ...filterValues(route.query as Schema | undefined)]) {
      const base = new URLSearchParams({ ...filter, limit: '1' });
      queries.push(`${base}`);
      if (route.path === '/events') continue;
      for (const cursor of cursors) queries.push(`${base}&cursor=${cursor}`);
    }
    if (route.path === '/events') {
      const first = (await app.api().get('/events?limit=1')).body.events[0];
      if (first) queries.push(`after=${first.id}&limit=1`);
    }
    const probe = new DatabaseSync(join(app.dataDir, EMBEDDED_DB_FILE), { readOnly: true });
    try {
      for (const query of queries) {
        finds.length = 0;
        const response = await app.api().get(`${path}?${query}`);
        expect(response.status, `${path}?${query}: ${JSON.stringify(response.body)}`).toBe(200);
        const listed = finds.filter((find) => find.collection !== 'api_keys');
        expect(listed.length, `${path}?${query} pages through a read model`).toBeGreaterThan(0);
        for (const { collection, options } of listed) {
          for (const { sql, plan } of findPlans(probe, collection, options))
            expect({ query, sql, slow: slowSteps(plan) }).toEqual({ query, sql, slow: [] });
        }
      }
    } finally {
      probe.close();
    }
  },
);
