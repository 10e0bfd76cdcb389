import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import type { Route } from '../../src/http/route.ts';
import { allRoutes } from '../../src/app/features.ts';
import { advanceArticle } from '../support/articleLife.ts';
import { startInkstream, type ApiResponse, type TestInkstream } from '../support/inkstream.ts';
import {
  apiEventsAfter,
  idKind,
  isCovered,
  ownedResources,
  pathWith,
  routeKey,
  VALID_BODIES,
  type OwnedIds,
} from '../support/routeSamples.ts';
import { stopPipeline } from '../support/stopPipeline.ts';

/** Fixed so a run is repeatable; set FUZZ_SEED to explore other inputs. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
const RUNS = 30;

let app: TestInkstream;
let ids: OwnedIds;
let head: bigint;
beforeAll(async () => {
  app = await startInkstream({ env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '1000000' } });
  await stopPipeline(app);
  ids = await ownedResources(app, app.key, (articleId) =>
    advanceArticle(app.platform, accountIdForName('test'), articleId, 'draft'),
  );
  head = await app.platform.eventStore.headPosition();
});
afterAll(async () => {
  await app.close();
});

const realPath = (route: Route) => {
  const kind = idKind(route.path);
  return kind ? pathWith(route.path, ids[kind]) : route.path;
};

function expectErrorShape(response: ApiResponse, status?: number) {
  expect(response.status).toBeLessThan(500);
  if (status !== undefined) expect(response.status).toBe(status);
  expect(response.body).toEqual({
    error: expect.objectContaining({
      code: expect.any(String),
      message: expect.any(String),
      requestId: expect.any(String),
    }),
  });
}

const rejectedBy = (route: Route) => (value: unknown) => !route.body!.safeParse(value).success;

/** Valid samples with one field broken, removed or added, and arbitrary JSON, all refused by the route's own schema. */
function invalidBodies(route: Route): fc.Arbitrary<unknown> {
  const sample = (VALID_BODIES[routeKey(route)] ?? {}) as Record<string, unknown>;
  const fields = [...Object.keys(sample), 'extra', 'status', 'name', 'title', 'instruction'];
  const mutated = fc
    .record({
      field: fc.constantFrom(...fields),
      value: fc.oneof(fc.jsonValue(), fc.string({ maxLength: 5000 })),
    })
    .map(({ field, value }) => ({ ...sample, [field]: value }));
  return fc.oneof(mutated, fc.jsonValue()).filter(rejectedBy(route));
}

const idsOf = (kind: keyof OwnedIds) =>
  fc
    .oneof(
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.stringMatching(/^(prj|tpc|art|whk)_[0-9a-z]{26}$/),
      fc.constantFrom(
        '%',
        ' ',
        '%00',
        ids[kind].toUpperCase(),
        `${ids[kind]}x`,
        ids[kind].slice(0, -1),
      ),
    )
    .filter((id) => id !== ids[kind] && id !== '.' && id !== '..'); // dot segments are resolved away by the client

type Attempt = {
  method: string;
  path: string;
  body?: string;
  expected: 'not_found' | 'bad_request' | 'no_5xx';
};

/** Every way this endpoint can be called wrongly: bad ids, bodies the schema refuses, bytes that are not JSON, odd queries. */
function attemptsFor(route: Route): fc.Arbitrary<Attempt>[] {
  const method = route.method.toUpperCase();
  const kind = idKind(route.path);
  const attempts: fc.Arbitrary<Attempt>[] = [];
  if (kind) {
    const body = route.body ? JSON.stringify(VALID_BODIES[routeKey(route)]) : undefined;
    attempts.push(
      idsOf(kind).map((id) => ({
        method,
        path: pathWith(route.path, id),
        body,
        expected: 'not_found',
      })),
    );
  }
  if (route.body) {
    attempts.push(
      invalidBodies(route).map((body) => ({
        method,
        path: realPath(route),
        body: JSON.stringify(body) ?? 'null',
        expected: 'bad_request',
      })),
    );
    const notJson = fc.string({ minLength: 1, maxLength: 200 }).filter((text) => {
      try {
        return rejectedBy(route)(JSON.parse(text));
      } catch {
        return true;
      }
    });
    attempts.push(
      notJson.map((body) => ({ method, path: realPath(route), body, expected: 'bad_request' })),
    );
  }
  if (route.query) {
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.integer().map(String),
      fc.constantFrom('0', '-1', '201', '1e3', 'NaN', 'approved', 'draft'),
    );
    const query = fc.dictionary(
      fc.constantFrom('status', 'limit', 'cursor', 'extra', 'limit[]'),
      value,
      { minKeys: 1 },
    );
    attempts.push(
      query.map((params) => ({
        method,
        path: `${realPath(route)}?${new URLSearchParams(params)}`,
        expected: 'no_5xx',
      })),
    );
  }
  return attempts;
}

const fuzzed = allRoutes.filter(
  (route) => isCovered(route) && (route.body || route.query || idKind(route.path)),
);

test.each(fuzzed.map((route) => [routeKey(route), route] as const))(
  '%s: wrong input never gets a 5xx and always the error shape',
  async (_key, route) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(...attemptsFor(route)), async (attempt) => {
        const headers: Record<string, string> =
          attempt.body === undefined ? {} : { 'content-type': 'application/json' };
        const response = await app
          .api()
          .request(attempt.method, attempt.path, attempt.body, headers);
        if (attempt.expected === 'no_5xx') {
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) expectErrorShape(response);
        } else {
          expectErrorShape(response, attempt.expected === 'not_found' ? 404 : 400);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  },
);

test('after all of it no request has appended a single event', async () => {
  expect(await apiEventsAfter(app, head)).toEqual([]);
});
