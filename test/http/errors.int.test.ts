import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../src/http/app.ts';
import { route } from '../../src/http/route.ts';
import { useAcmeProject } from '../support/acmeProject.ts';
import { apiEventsAfter } from '../support/routeSamples.ts';

const acme = useAcmeProject({ pipeline: 'running' });

const errorShape = (code: string) => ({
  error: expect.objectContaining({
    code,
    message: expect.any(String),
    requestId: expect.any(String),
  }),
});

test('malformed JSON is 400 bad_request on every kind of body', async () => {
  for (const [method, path] of [
    ['POST', `/projects/${acme.projectId}/topics`],
    ['PUT', `/projects/${acme.projectId}/brand`],
    ['PATCH', `/projects/${acme.projectId}`],
  ]) {
    const response = await acme.app
      .api()
      .request(method, path, '{"title": ', { 'content-type': 'application/json' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errorShape('bad_request'));
  }
});

test('invalid fields are 400 validation_failed with a detail per field', async () => {
  const response = await acme.app.api().post(`/projects/${acme.projectId}/topics`, {
    title: '',
    keyword: 7,
    scheduledFor: 'tomorrow',
    extra: true,
  });
  expect(response.status).toBe(400);
  expect(response.body).toEqual(errorShape('validation_failed'));
  expect(response.body.error.details.map((d: { path: string }) => d.path)).toEqual(
    expect.arrayContaining(['body.title', 'body.keyword', 'body.scheduledFor']),
  );
  expect(
    response.body.error.details.find((d: { path: string }) => d.path === 'body').message,
  ).toContain('extra');
  const notUrl = await acme.app
    .api()
    .post('/projects', { name: 'x', websiteUrl: 'http://exa mple.com' });
  expect(notUrl.status).toBe(400);
  expect(notUrl.body.error.details[0].path).toBe('body.websiteUrl');
  const wrongType = await acme.app.api().post(`/projects/${acme.projectId}/topics`, ['title']);
  expect(wrongType.status).toBe(400);
  const missing = await acme.app.api().post(`/projects/${acme.projectId}/topics`);
  expect(missing.status).toBe(400);
  expect(missing.body.error.code).toBe('validation_failed');
});

test('unknown endpoints and resources are 404', async () => {
  expect((await acme.app.api().get('/nothing-here')).body).toEqual(errorShape('not_found'));
  expect((await acme.app.api().get('/topics/tpc_00000000000000000000000000')).body).toEqual(
    errorShape('not_found'),
  );
  expect((await acme.app.api().request('DELETE', `/projects/${acme.projectId}`)).status).toBe(404);
  expect((await fetch(`${acme.app.url}/elsewhere`)).status).toBe(404);
});

test('an operation in the wrong state is 409 invalid_state', async () => {
  const {
    body: { topic },
  } = await acme.app.api().post(`/projects/${acme.projectId}/topics`, { title: 'Once' });
  await acme.app.api().post(`/topics/${topic.id}/write`);
  const again = await acme.app.api().post(`/topics/${topic.id}/write`);
  expect(again.status).toBe(409);
  expect(again.body).toEqual(errorShape('invalid_state'));
});

test('a body over 1 MB is 413 and a non-JSON body is 415', async () => {
  const large = await acme.app
    .api()
    .post(`/projects/${acme.projectId}/topics`, { title: 'x', brief: 'y'.repeat(1024 * 1024) });
  expect(large.status).toBe(413);
  expect(large.body).toEqual(errorShape('payload_too_large'));
  const text = await acme.app
    .api()
    .request('POST', `/projects/${acme.projectId}/topics`, 'title=x', {
      'content-type': 'text/plain',
    });
  expect(text.status).toBe(415);
  expect(text.body).toEqual(errorShape('unsupported_media_type'));
  const untyped = await fetch(`${acme.app.url}/api/v1/projects/${acme.projectId}/topics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acme.app.key}`, 'content-type': '' },
    body: '{"title":"x"}',
  });
  expect(untyped.status).toBe(415);
});

test('the free plan: the second project is 402 naming the project cap', async () => {
  const free = acme.app.api(await acme.app.newKey('free-projects', 'free'));
  expect(
    (await free.post('/projects', { name: 'One', websiteUrl: 'https://one.example' })).status,
  ).toBe(201);
  const second = await free.post('/projects', { name: 'Two', websiteUrl: 'https://two.example' });
  expect(second.status).toBe(402);
  expect(second.body).toEqual(errorShape('payment_required'));
  expect(second.body.error.message).toMatch(/Project cap reached: the free plan allows 1 project/);
  expect((await free.get('/projects')).body.projects).toHaveLength(1);
});

test('the free plan: the eleventh article of the month is 402 naming the article quota, and nothing is written', async () => {
  const free = acme.app.api(await acme.app.newKey('free-articles', 'free'));
  const {
    body: { project },
  } = await free.post('/projects', { name: 'Quota', websiteUrl: 'https://quota.example' });
  for (let i = 0; i < 10; i++) {
    const {
      body: { topic },
    } = await free.post(`/projects/${project.id}/topics`, { title: `Article ${i}` });
    expect((await free.post(`/topics/${topic.id}/write`)).status).toBe(201);
  }
  const {
    body: { topic },
  } = await free.post(`/projects/${project.id}/topics`, { title: 'One too many' });
  const head = await acme.app.platform.eventStore.headPosition();
  const refused = await free.post(`/topics/${topic.id}/write`);
  expect(refused.status).toBe(402);
  expect(refused.body.error.message).toMatch(
    /Article quota reached: the free plan allows 10 articles per calendar month/,
  );
  expect(await apiEventsAfter(acme.app, head)).toEqual([]); // the pipeline drafting the ten may append meanwhile
  expect((await free.get(`/topics/${topic.id}`)).body.topic.status).toBe('approved');
});

test('an unexpected failure is a 500 with a request id and no stack or internals', async () => {
  // The real pipeline (auth, rate limit, error handling) in front of a handler that fails unexpectedly.
  const failing = route({
    method: 'get',
    path: '/failing',
    tag: 'Test',
    summary: 'Fails',
    responses: { 200: z.object({}) },
    async handle() {
      throw new TypeError('cannot read /srv/inkstream/data/inkstream.sqlite: disk I/O error');
    },
  });
  const server = createServer(
    createApp(acme.app.platform, {
      routes: [failing],
      health: { ready: async () => ({ ok: true, checks: {} }) },
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/failing`,
      { headers: { authorization: `Bearer ${acme.app.key}` } },
    );
    const body = (await response.json()) as {
      error: { code: string; message: string; requestId: string };
    };
    expect(response.status).toBe(500);
    expect(body).toEqual({
      error: {
        code: 'internal',
        message: expect.stringContaining(body.error.requestId),
        requestId: expect.stringMatching(/^req_/),
      },
    });
    expect(response.headers.get('x-request-id')).toBe(body.error.requestId);
    expect(JSON.stringify(body)).not.toMatch(/TypeError|sqlite|disk|\.ts|at /);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
