import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';

let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream();
});
afterAll(async () => {
  await app.close();
});

const hook = (n: number | string) => `https://hooks.example.com/inkstream/${n}`;

test('registering returns the secret once; reads never show it again', async () => {
  const created = await app
    .api()
    .post('/webhooks', { url: hook(1), events: ['brand.crawled', 'article.published'] });
  expect(created.status).toBe(201);
  const { webhook } = created.body;
  expect(webhook).toMatchObject({
    url: hook(1),
    events: ['article.published', 'brand.crawled'],
    enabled: true,
    disabled: null,
    failingSince: null,
  });
  expect(webhook.id).toMatch(/^whk_[0-9a-z]{26}$/);
  expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  expect(Buffer.from(webhook.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
  expect(created.headers.get('location')).toBe(`/api/v1/webhooks/${webhook.id}`);

  const read = await app.api().get(`/webhooks/${webhook.id}`);
  expect(read.status).toBe(200);
  expect(read.body.webhook).toEqual({ ...webhook, secret: undefined });
  expect(JSON.stringify(read.body)).not.toContain(webhook.secret);
  const list = await app.api().get('/webhooks');
  expect(JSON.stringify(list.body)).not.toContain(webhook.secret);
  expect(JSON.stringify(list.body)).not.toContain('sealed');
});

test('the secret never enters the event log in plaintext', async () => {
  const { body } = await app.api().post('/webhooks', { url: hook('sealed') });
  const events = await app.platform.eventStore.readStream(`webhook-${body.webhook.id}`);
  const logged = JSON.stringify(events.map((event) => event.data));
  expect(logged).not.toContain(body.webhook.secret);
  expect(logged).not.toContain(body.webhook.secret.slice(6));
  expect(events[0].data.sealedSecret).toMatch(/^v2\./);
});

test('without events an endpoint subscribes to every type (events: null)', async () => {
  const { body } = await app.api().post('/webhooks', { url: hook('all') });
  expect(body.webhook.events).toBeNull();
});

test('PATCH changes the events, disables with a reason and enables again', async () => {
  const { body } = await app.api().post('/webhooks', { url: hook('patch') });
  const id = body.webhook.id;
  const filtered = await app.api().patch(`/webhooks/${id}`, { events: ['topics.suggested'] });
  expect(filtered.status).toBe(200);
  expect(filtered.body.webhook.events).toEqual(['topics.suggested']);
  const disabled = await app.api().patch(`/webhooks/${id}`, { enabled: false });
  expect(disabled.body.webhook).toMatchObject({ enabled: false, disabled: { reason: 'user' } });
  expect((await app.api().get(`/webhooks/${id}`)).body.webhook.disabled.reason).toBe('user');
  const enabled = await app.api().patch(`/webhooks/${id}`, { enabled: true, events: null });
  expect(enabled.body.webhook).toMatchObject({ enabled: true, disabled: null, events: null });
});

test('DELETE answers 204, then the endpoint is gone from reads and lists', async () => {
  const { body } = await app.api().post('/webhooks', { url: hook('delete') });
  const id = body.webhook.id;
  const deleted = await app.api().delete(`/webhooks/${id}`);
  expect(deleted.status).toBe(204);
  expect((await app.api().get(`/webhooks/${id}`)).status).toBe(404);
  expect((await app.api().delete(`/webhooks/${id}`)).status).toBe(404);
  const all = (await app.api().get('/webhooks?limit=200')).body.webhooks.map(
    (w: { id: string }) => w.id,
  );
  expect(all).not.toContain(id);
});

test('the list pages with limit and cursor, newest first', async () => {
  const key = await app.newKey('pager');
  const ids: string[] = [];
  for (let i = 0; i < 3; i++)
    ids.push((await app.api(key).post('/webhooks', { url: hook(`page-${i}`) })).body.webhook.id);
  const first = await app.api(key).get('/webhooks?limit=2');
  expect(first.body.webhooks.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
  const second = await app.api(key).get(`/webhooks?limit=2&cursor=${first.body.nextCursor}`);
  expect(second.body.webhooks.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
  expect(second.body.nextCursor).toBeNull();
});

test('bad input is refused with the error shape and registers nothing', async () => {
  const key = await app.newKey('careless');
  const cases: unknown[] = [
    { url: 'http://hooks.example.com/x' },
    { url: 'not a url' },
    { url: hook('x'), events: ['article.deleted'] },
    { url: hook('x'), events: [] },
    { url: hook('x'), secret: 'mine' },
    {},
    'just text',
  ];
  for (const body of cases) {
    const response = await app.api(key).post('/webhooks', body);
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect(response.body.error.code).toMatch(/^(validation_failed|bad_request)$/);
  }
  expect((await app.api(key).get('/webhooks')).body.webhooks).toEqual([]);
  const { body } = await app.api(key).post('/webhooks', { url: hook('ok') });
  expect((await app.api(key).patch(`/webhooks/${body.webhook.id}`, {})).status).toBe(400);
  expect(
    (await app.api(key).patch(`/webhooks/${body.webhook.id}`, { events: ['nope'] })).status,
  ).toBe(400);
  expect((await app.api(key).get('/webhooks/whk_nope')).status).toBe(404);
});

test('another account gets 404 for every endpoint of the first and never sees them listed', async () => {
  const { body } = await app.api().post('/webhooks', { url: hook('mine') });
  const id = body.webhook.id;
  const other = app.api(await app.newKey('intruder'));
  expect((await other.get(`/webhooks/${id}`)).status).toBe(404);
  expect((await other.patch(`/webhooks/${id}`, { enabled: false })).status).toBe(404);
  expect((await other.delete(`/webhooks/${id}`)).status).toBe(404);
  expect((await other.get(`/webhooks/${id}/deliveries`)).status).toBe(404);
  expect((await other.post(`/webhooks/${id}/test`)).status).toBe(404);
  expect(
    (await other.post(`/webhooks/${id}/deliveries/dlv_01m80v0gaj4xcr1bwv1t19vqds/redeliver`))
      .status,
  ).toBe(404);
  expect((await other.get('/webhooks')).body.webhooks).toEqual([]);
  expect((await app.api().get(`/webhooks/${id}`)).body.webhook.enabled).toBe(true);
});

test('the index lists every webhook endpoint', async () => {
  const index = await app.api().get('');
  for (const path of [
    '/webhooks',
    '/webhooks/{id}',
    '/webhooks/{id}/deliveries',
    '/webhooks/{id}/deliveries/{deliveryId}',
    '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    '/webhooks/{id}/test',
    '/events',
  ]) {
    expect(Object.keys(index.body.paths), path).toContain(path);
  }
});

test('a literal private address is refused at registration when private URLs are not allowed', async () => {
  const strict = await startInkstream({ env: { INKSTREAM_ALLOW_PRIVATE_URLS: '0' } });
  try {
    for (const url of [
      'https://10.0.0.7/hook',
      'https://127.0.0.1:8443/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest',
    ]) {
      const response = await strict.api().post('/webhooks', { url });
      expect(response.status, url).toBe(400);
      expect(response.body.error.message).toMatch(/is not a public address/);
    }
    expect((await strict.api().post('/webhooks', { url: hook('public') })).status).toBe(201);
  } finally {
    await strict.close();
  }
});
