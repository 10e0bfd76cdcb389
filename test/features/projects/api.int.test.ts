import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';

let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream();
});
afterAll(async () => {
  await app.close();
});

test('a created project is listed and readable, with its brand crawl requested', async () => {
  const created = await app
    .api()
    .post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' });
  expect(created.status).toBe(201);
  expect(created.body.project).toMatchObject({
    name: 'Acme',
    websiteUrl: 'https://acme.example',
    paused: false,
    crawl: { status: 'pending' },
  });
  const id = created.body.project.id;
  const read = await app.api().get(`/projects/${id}`);
  expect(read.status).toBe(200);
  expect(read.body.project.id).toBe(id);
  const list = await app.api().get('/projects');
  expect(list.body.projects.map((p: { id: string }) => p.id)).toContain(id);
});

test('PATCH pauses a project and merges settings', async () => {
  const { body } = await app
    .api()
    .post('/projects', { name: 'Beta', websiteUrl: 'https://beta.example' });
  const patched = await app.api().patch(`/projects/${body.project.id}`, {
    paused: true,
    settings: { cadence: { enabled: true } },
  });
  expect(patched.status).toBe(200);
  expect(patched.body.project.paused).toBe(true);
  expect(patched.body.project.settings.cadence).toMatchObject({
    enabled: true,
    articlesPerWeek: 1,
  });
  const read = await app.api().get(`/projects/${body.project.id}`);
  expect(read.body.project.paused).toBe(true);
});

test('another account gets 404 for the project and never sees it listed', async () => {
  const { body } = await app
    .api()
    .post('/projects', { name: 'Private', websiteUrl: 'https://private.example' });
  const other = app.api(await app.newKey('other'));
  expect((await other.get(`/projects/${body.project.id}`)).status).toBe(404);
  expect((await other.patch(`/projects/${body.project.id}`, { name: 'x' })).status).toBe(404);
  expect((await other.get('/projects')).body.projects).toEqual([]);
});

test('bad input is refused with the error shape and changes nothing', async () => {
  const before = (await app.api().get('/projects')).body.projects.length;
  const invalid = await app.api().post('/projects', { name: '', websiteUrl: 'ftp://x' });
  expect(invalid.status).toBe(400);
  expect(invalid.body.error.code).toBe('validation_failed');
  expect(invalid.body.error.details.map((d: { path: string }) => d.path)).toEqual(
    expect.arrayContaining(['body.name', 'body.websiteUrl']),
  );
  const malformed = await app
    .api()
    .request('POST', '/projects', '{"name":', { 'content-type': 'application/json' });
  expect(malformed.status).toBe(400);
  expect(malformed.body.error.code).toBe('bad_request');
  const notJson = await app.api().request('POST', '/projects', 'name=x', {
    'content-type': 'application/x-www-form-urlencoded',
  });
  expect(notJson.status).toBe(415);
  const tooLarge = await app
    .api()
    .post('/projects', { name: 'x'.repeat(1_100_000), websiteUrl: 'https://a.example' });
  expect(tooLarge.status).toBe(413);
  expect((await app.api().get('/projects')).body.projects.length).toBe(before);
});

test('requests without a valid key get 401', async () => {
  expect((await app.api('nope').get('/projects')).status).toBe(401);
  const response = await fetch(`${app.url}/api/v1/projects`);
  expect(response.status).toBe(401);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
});
