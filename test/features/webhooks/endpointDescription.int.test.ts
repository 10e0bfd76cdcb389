import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';

let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream();
});
afterAll(async () => {
  await app.close();
});

const hook = (n: string) => `https://hooks.example.com/described/${n}`;

const HOSTILE = [
  'line one\nline two',
  'tab\there',
  'bell\u0007',
  'nul\u0000',
  'C1 control\u0085',
  'escape \u001b[31mred',
  'paid \u202Eevil.exe\u202C',
  'isolate \u2066rtl\u2069',
  'mark \u200F',
  'separator\u2028next',
  'x'.repeat(201),
];

test('a description with control characters, bidi overrides or past 200 characters is refused on the field and changes nothing', async () => {
  const key = await app.newKey('hostile-descriptions');
  for (const description of HOSTILE) {
    const created = await app.api(key).post('/webhooks', { url: hook('refused'), description });
    expect(created.status, JSON.stringify(description)).toBe(400);
    expect(created.body.error.code).toBe('validation_failed');
    expect(created.body.error.details.map((detail: { path: string }) => detail.path)).toEqual([
      'body.description',
    ]);
  }
  expect((await app.api(key).get('/webhooks')).body.webhooks).toEqual([]);

  const { body } = await app
    .api(key)
    .post('/webhooks', { url: hook('kept'), description: 'Build server' });
  for (const description of [...HOSTILE, 42, ['a']]) {
    const patched = await app.api(key).patch(`/webhooks/${body.webhook.id}`, { description });
    expect(patched.status, JSON.stringify(description)).toBe(400);
  }
  expect((await app.api(key).get(`/webhooks/${body.webhook.id}`)).body.webhook.description).toBe(
    'Build server',
  );
});

test('markup in a description is kept as the characters typed, never interpreted', async () => {
  const markup = '<img src=x onerror=alert(1)> & <b>"staging"</b>';
  const { status, body } = await app
    .api()
    .post('/webhooks', { url: hook('markup'), description: markup });
  expect(status).toBe(201);
  expect(body.webhook.description).toBe(markup);
  expect((await app.api().get(`/webhooks/${body.webhook.id}`)).body.webhook.description).toBe(
    markup,
  );
});

test('the description is optional, trimmed, shown in reads and lists, and changed or removed with PATCH', async () => {
  const bare = await app.api().post('/webhooks', { url: hook('bare') });
  expect(bare.body.webhook.description).toBeNull();

  const { body } = await app
    .api()
    .post('/webhooks', { url: hook('described'), description: '  Slack relay for the editors  ' });
  const id = body.webhook.id;
  expect(body.webhook.description).toBe('Slack relay for the editors');
  const listed = (await app.api().get('/webhooks')).body.webhooks.find(
    (webhook: { id: string }) => webhook.id === id,
  );
  expect(listed.description).toBe('Slack relay for the editors');

  const renamed = await app.api().patch(`/webhooks/${id}`, { description: 'Zapier: new articles' });
  expect(renamed.status).toBe(200);
  expect(renamed.body.webhook).toMatchObject({
    description: 'Zapier: new articles',
    events: null,
    enabled: true,
  });
  expect((await app.api().get(`/webhooks/${id}`)).body.webhook.description).toBe(
    'Zapier: new articles',
  );

  expect(
    (await app.api().patch(`/webhooks/${id}`, { description: '' })).body.webhook.description,
  ).toBeNull();
  await app.api().patch(`/webhooks/${id}`, { description: 'again' });
  expect(
    (await app.api().patch(`/webhooks/${id}`, { description: null })).body.webhook.description,
  ).toBeNull();
  expect((await app.api().get(`/webhooks/${id}`)).body.webhook.description).toBeNull();
});

test('an unchanged description appends no event', async () => {
  const { body } = await app.api().post('/webhooks', { url: hook('same'), description: 'same' });
  const before = await app.platform.eventStore.readStream(`webhook-${body.webhook.id}`);
  await app.api().patch(`/webhooks/${body.webhook.id}`, { description: 'same' });
  expect(await app.platform.eventStore.readStream(`webhook-${body.webhook.id}`)).toHaveLength(
    before.length,
  );
});
