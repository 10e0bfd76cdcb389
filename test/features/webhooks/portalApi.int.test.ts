import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../src/domain/webhooks/eventTypes.ts';
import {
  EVENT_DATA_SCHEMAS,
  type CatalogueEventType,
} from '../../../src/features/webhooks/catalogue/payloadSchemas.ts';
import {
  pruneWebhookHistory,
  WEBHOOK_RETENTION_MS,
} from '../../../src/features/webhooks/retention.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';
import { startReceiverPool, type Receiver } from '../../support/webhookReceiver.ts';
import { envelopes, eventually, queueArticle, register } from './harness.ts';

/** What the webhooks portal reads: the delivery log's filters, the success-rate figures, the event catalogue. */
const clock = manualClock('2026-03-01T09:20:00.000Z');
const HOUR = 3_600_000;
let app: TestInkstream;
let receivers: Awaited<ReturnType<typeof startReceiverPool>>;
beforeAll(async () => {
  receivers = await startReceiverPool();
  app = await startInkstream({ clock, env: { INKSTREAM_WEBHOOK_RETRY_DELAYS: '1h' } });
  await stopPipeline(app);
});
afterAll(async () => {
  await app.close();
  await receivers.close();
});

const receiver = (): Promise<Receiver> => receivers.start();
const deliveries = async (endpointId: string, query: string) =>
  (await app.api().get(`/webhooks/${endpointId}/deliveries?${query}`)).body.deliveries as any[];

test('junk filters and windows are 400 naming the field, and change nothing', async () => {
  const endpointId = await register(app, await receiver());
  for (const query of [
    'status=delivered',
    'type=article.deleted',
    'type=%3Cscript%3E',
    'status=',
    'limit=0',
    'limit=abc',
  ]) {
    const response = await app.api().get(`/webhooks/${endpointId}/deliveries?${query}`);
    expect(response.status, query).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
  }
  for (const window of ['30d', '1h', '', '24H']) {
    const response = await app.api().get(`/webhooks/${endpointId}/stats?window=${window}`);
    expect(response.status, window).toBe(400);
    expect(response.body.error.message).toContain('window');
  }
  expect(await deliveries(endpointId, '')).toEqual([]);
});

test("another account's endpoint is 404 for its log, its stats and its test event", async () => {
  const endpointId = await register(app, await receiver());
  const other = app.api(await app.newKey('portal-other'));
  for (const path of [
    `/webhooks/${endpointId}/deliveries`,
    `/webhooks/${endpointId}/deliveries?status=failed&type=webhook.test`,
    `/webhooks/${endpointId}/stats?window=7d`,
  ]) {
    const response = await other.get(path);
    expect(response.status, path).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  }
  expect((await other.post(`/webhooks/${endpointId}/test`)).status).toBe(404);
});

test('an answer carrying <script> is logged as the text it was, in JSON', async () => {
  const r = await receiver();
  r.behave(() => ({
    status: 200,
    headers: { 'content-type': 'text/html' },
    body: '<script>alert(1)</script><b>ok</b>',
  }));
  const endpointId = await register(app, r);
  await app.api().post(`/webhooks/${endpointId}/test`);
  const [delivery] = await eventually(async () => {
    const found = await deliveries(endpointId, 'status=succeeded');
    return found.length > 0 && found;
  });
  expect(delivery.attempts[0]).toMatchObject({
    statusCode: 200,
    responseBody: '<script>alert(1)</script><b>ok</b>',
  });
  const raw = await fetch(`${app.url}/api/v1/webhooks/${endpointId}/deliveries`, {
    headers: { authorization: `Bearer ${app.key}` },
  });
  expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
});

test('the log filters by event type and status together, newest first, paged by cursor', async () => {
  const r = await receiver();
  r.behave((request) =>
    JSON.parse(request.body.toString('utf8')).type === 'webhook.test'
      ? { status: 204 }
      : { status: 500, body: 'down' },
  );
  const endpointId = await register(app, r, { events: ['article.status_changed'] });
  for (let i = 0; i < 3; i++) await app.api().post(`/webhooks/${endpointId}/test`);
  await queueArticle(app, 'test', 'Filtered');
  await eventually(
    async () =>
      (await deliveries(endpointId, 'status=retrying')).length === 1 &&
      (await deliveries(endpointId, 'status=succeeded')).length === 3,
  );

  const tests = await deliveries(endpointId, 'type=webhook.test');
  expect(tests.map((d) => d.type)).toEqual(['webhook.test', 'webhook.test', 'webhook.test']);
  expect(tests.map((d) => d.id)).toEqual([...tests.map((d) => d.id)].sort().reverse());
  const failing = await deliveries(endpointId, 'type=article.status_changed&status=retrying');
  expect(failing).toMatchObject([
    {
      type: 'article.status_changed',
      status: 'retrying',
      attempts: [{ statusCode: 500, responseBody: 'down' }],
    },
  ]);
  expect(await deliveries(endpointId, 'type=webhook.test&status=retrying')).toEqual([]);

  const first = await app.api().get(`/webhooks/${endpointId}/deliveries?type=webhook.test&limit=2`);
  const rest = await app
    .api()
    .get(
      `/webhooks/${endpointId}/deliveries?type=webhook.test&limit=2&cursor=${first.body.nextCursor}`,
    );
  expect([...first.body.deliveries, ...rest.body.deliveries].map((d: any) => d.id)).toEqual(
    tests.map((d) => d.id),
  );
});

test('stats count attempts per hour over 24 hours and per 6 hours over 7 days; hours that left the window drop out', async () => {
  const r = await receiver();
  let failing = false;
  r.behave(() => (failing ? { status: 503 } : { status: 204 }));
  const endpointId = await register(app, r);
  const stats = async (window: string) =>
    (await app.api().get(`/webhooks/${endpointId}/stats?window=${window}`)).body.stats;

  const empty = await stats('24h');
  expect(empty).toMatchObject({
    window: '24h',
    bucketHours: 1,
    from: '2026-02-28T10:00:00.000Z',
    totals: { succeeded: 0, failed: 0 },
  });
  expect(empty.buckets).toHaveLength(24);

  await app.api().post(`/webhooks/${endpointId}/test`);
  await app.api().post(`/webhooks/${endpointId}/test`);
  await eventually(async () => (await stats('24h')).totals.succeeded === 2);
  clock.advance(2 * HOUR);
  failing = true;
  await app.api().post(`/webhooks/${endpointId}/test`);
  await eventually(async () => (await stats('24h')).totals.failed === 1);

  const day = await stats('24h');
  expect(day.to).toBe(new Date(Math.floor(clock.nowMs() / HOUR) * HOUR + HOUR).toISOString());
  expect(day.buckets.at(-3)).toEqual({ at: '2026-03-01T09:00:00.000Z', succeeded: 2, failed: 0 });
  expect(day.buckets.at(-1)).toEqual({ at: '2026-03-01T11:00:00.000Z', succeeded: 0, failed: 1 });
  const week = await stats('7d');
  expect(week).toMatchObject({ window: '7d', bucketHours: 6, totals: { succeeded: 2, failed: 1 } });
  expect(week.buckets).toHaveLength(28);
  expect(week.buckets.at(-1)).toEqual({ at: '2026-03-01T06:00:00.000Z', succeeded: 2, failed: 1 });

  await app.api().patch(`/webhooks/${endpointId}`, { enabled: false }); // no retry adds to the figures below
  clock.advance(22 * HOUR);
  expect((await stats('24h')).totals).toEqual({ succeeded: 0, failed: 1 });
  expect((await stats('7d')).totals).toEqual({ succeeded: 2, failed: 1 });

  // The hourly counts are kept as long as the delivery log, then trimmed with it.
  expect(
    (await pruneWebhookHistory(app.platform.readStore, clock.nowMs() + 7 * 24 * HOUR)).attemptHours,
  ).toBe(0);
  expect(
    (await pruneWebhookHistory(app.platform.readStore, clock.nowMs() + WEBHOOK_RETENTION_MS))
      .attemptHours,
  ).toBeGreaterThanOrEqual(2);
  expect((await stats('7d')).totals).toEqual({ succeeded: 0, failed: 0 });
});

test('the catalogue lists every subscribable type, and webhook.test, each with an example that has the real payload shape', async () => {
  const response = await app.api().get('/webhooks/event-types');
  expect(response.status).toBe(200);
  const catalogue = response.body.eventTypes as any[];
  expect(catalogue.filter((entry) => entry.subscribable).map((entry) => entry.type)).toEqual([
    ...WEBHOOK_EVENT_TYPES,
  ]);
  expect(catalogue.find((entry) => !entry.subscribable).type).toBe('webhook.test');
  for (const entry of catalogue) {
    expect(entry.description.length, entry.type).toBeGreaterThan(20);
    expect(entry.example.type).toBe(entry.type);
    expect(
      EVENT_DATA_SCHEMAS[entry.type as CatalogueEventType].safeParse(entry.example.data).error
        ?.issues,
      entry.type,
    ).toBeUndefined();
  }
});

test("a real test event matches the catalogue's webhook.test shape", async () => {
  const r = await receiver();
  const endpointId = await register(app, r);
  await app.api().post(`/webhooks/${endpointId}/test`);
  const [event] = await eventually(() => envelopes(r).length > 0 && envelopes(r));
  expect(EVENT_DATA_SCHEMAS['webhook.test'].safeParse(event.data).error?.issues).toBeUndefined();
  expect(event.data.endpointId).toBe(endpointId);
});
