import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createApp } from '../../src/http/app.ts';
import { openApiPath } from '../../src/http/route.ts';
import { allRoutes } from '../../src/app/features.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let app: TestInkstream;
let doc: { openapi: string; paths: Record<string, Record<string, unknown>> };
beforeAll(async () => {
  app = await startInkstream();
  doc = (await app.api().get('/')).body;
});
afterAll(async () => {
  await app.close();
});

/** What the app dispatches under /api/v1, read from the app itself. */
function mountedEndpoints(): string[] {
  const { endpoints } = createApp(app.platform, {
    routes: allRoutes,
    health: { ready: async () => ({ ok: true, checks: {} }) },
  });
  return endpoints.map(({ method, path }) => `${method.toUpperCase()} ${openApiPath(path)}`);
}

const documented = () =>
  Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );

test('every mounted endpoint is in the index, and the index names no endpoint that does not exist', () => {
  const mounted = mountedEndpoints();
  expect(new Set(mounted).size).toBe(mounted.length);
  expect(documented().sort()).toEqual(mounted.sort());
  expect(mounted).toContain('GET /');
  expect(mounted).toContain('POST /topics/{id}/write');
});

test('every documented operation is answered by its endpoint, not by the unknown-endpoint 404', async () => {
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const method of Object.keys(operations)) {
      const concrete = path.replace(/\{[^}]+\}/g, 'x');
      // The live stream stays open; a bad Last-Event-ID makes its endpoint answer (400) at once.
      const headers: Record<string, string> =
        path === '/live' ? { 'last-event-id': 'not-an-id' } : {};
      const response = await app
        .api()
        .request(
          method.toUpperCase(),
          concrete,
          method === 'get' || method === 'delete' ? undefined : {},
          headers,
        );
      expect(response.body?.error?.message ?? '', `${method} ${path}`).not.toMatch(/^No endpoint/);
    }
  }
});

test('every declared route is mounted', () => {
  const mounted = new Set(mountedEndpoints());
  for (const route of allRoutes)
    expect(mounted).toContain(`${route.method.toUpperCase()} ${openApiPath(route.path)}`);
});

test('the index is a valid OpenAPI 3.1 document', async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');
  expect(() => validator.resolveRefs()).not.toThrow();
});

test('each operation documents its error responses with the error schema', () => {
  const write = doc.paths['/topics/{id}/write'].post as {
    responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  };
  expect(Object.keys(write.responses)).toEqual(
    expect.arrayContaining(['201', '400', '401', '402', '404', '409', '422', '429', '500']),
  );
  expect(write.responses['402'].content!['application/json'].schema).toEqual({
    $ref: '#/components/schemas/Error',
  });
  const read = doc.paths['/articles/{id}'].get as {
    parameters: { name: string; schema: { pattern?: string } }[];
  };
  expect(read.parameters[0]).toMatchObject({
    name: 'id',
    schema: { pattern: expect.stringContaining('art_') },
  });
});

test('the index needs a key like every other endpoint', async () => {
  expect((await fetch(`${app.url}/api/v1`)).status).toBe(401);
});
