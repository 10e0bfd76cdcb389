import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT_ALLOWED_MODELS } from '../../../src/integrations/llm/modelAllowList.ts';
import { startInkstream, type ApiResponse, type TestInkstream } from '../../support/inkstream.ts';

let app: TestInkstream;
let narrowed: TestInkstream;
beforeAll(async () => {
  app = await startInkstream();
  narrowed = await startInkstream({
    env: {
      INKSTREAM_DEFAULT_MODEL: 'house-model',
      INKSTREAM_ALLOWED_MODELS: ' big-model , ,small-model',
    },
  });
});
afterAll(async () => {
  await app?.close();
  await narrowed?.close();
});

/** Events the request appended, found by the request id every event's metadata carries. */
async function appendedBy(server: TestInkstream, response: ApiResponse): Promise<unknown[]> {
  const requestId = response.headers.get('x-request-id');
  expect(requestId).toBeTruthy();
  return (await server.platform.eventStore.readAll()).filter(
    (event) => event.metadata.requestId === requestId,
  );
}

test('PATCH with a model that is not on the allow-list answers 400 naming the allowed ones and appends nothing', async () => {
  const { body } = await app
    .api()
    .post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' });
  const refused = await app
    .api()
    .patch(`/projects/${body.project.id}`, { settings: { model: 'o1-pro' } });
  expect(refused.status).toBe(400);
  expect(refused.body.error.code).toBe('validation_failed');
  for (const model of ['gpt-4o-mini', ...DEFAULT_ALLOWED_MODELS])
    expect(refused.body.error.message).toContain(`"${model}"`);
  expect(refused.body.error.message).not.toContain('o1-pro');
  expect(refused.body.error.details).toEqual([
    { path: 'body.settings.model', message: refused.body.error.message },
  ]);
  expect(await appendedBy(app, refused)).toEqual([]);
  expect(
    (await app.api().get(`/projects/${body.project.id}`)).body.project.settings.model,
  ).toBeNull();
});

test('a refused model in the same PATCH as a rename changes neither', async () => {
  const { body } = await app
    .api()
    .post('/projects', { name: 'Keep', websiteUrl: 'https://keep.example' });
  const refused = await app.api().patch(`/projects/${body.project.id}`, {
    name: 'Renamed',
    settings: { model: 'gpt-4.5-preview', cadence: { enabled: true } },
  });
  expect(refused.status).toBe(400);
  expect(await appendedBy(app, refused)).toEqual([]);
  expect((await app.api().get(`/projects/${body.project.id}`)).body.project).toMatchObject({
    name: 'Keep',
    settings: { cadence: { enabled: false } },
  });
});

test('creating a project with a model that is not allowed answers 400 and creates nothing, not even a plan slot', async () => {
  const listed = (await app.api().get('/projects')).body.projects.length;
  const refused = await app.api().post('/projects', {
    name: 'Costly',
    websiteUrl: 'https://costly.example',
    settings: { model: 'gpt-4-32k' },
  });
  expect(refused.status).toBe(400);
  expect(refused.body.error.message).toContain('"gpt-4o-mini"');
  expect(await appendedBy(app, refused)).toEqual([]);
  expect((await app.api().get('/projects')).body.projects.length).toBe(listed);
});

test('an allowed model is accepted, and null goes back to the server default', async () => {
  const { body } = await app.api().post('/projects', {
    name: 'Fine',
    websiteUrl: 'https://fine.example',
    settings: { model: 'gpt-4.1-mini' },
  });
  expect(body.project.settings.model).toBe('gpt-4.1-mini');
  const reset = await app
    .api()
    .patch(`/projects/${body.project.id}`, { settings: { model: null } });
  expect(reset.status).toBe(200);
  expect(reset.body.project.settings.model).toBeNull();
  expect(await appendedBy(app, reset)).toEqual([
    expect.objectContaining({ type: 'ProjectSettingsChanged' }),
  ]);
});

test('INKSTREAM_ALLOWED_MODELS replaces the list; the default model is always allowed', async () => {
  const { body } = await narrowed
    .api()
    .post('/projects', { name: 'Narrow', websiteUrl: 'https://narrow.example' });
  const id = body.project.id;
  for (const model of ['big-model', 'small-model', 'house-model']) {
    expect(
      (await narrowed.api().patch(`/projects/${id}`, { settings: { model } })).body.project.settings
        .model,
    ).toBe(model);
  }
  const refused = await narrowed
    .api()
    .patch(`/projects/${id}`, { settings: { model: 'gpt-4o-mini' } });
  expect(refused.status).toBe(400);
  expect(refused.body.error.message).toContain('"house-model", "big-model", "small-model"');
});
