import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';
import { startReceiverPool, type Receiver } from '../../support/webhookReceiver.ts';
import { envelopes, eventually, queueArticle, register } from './harness.ts';

const clock = manualClock('2026-03-01T09:00:00.000Z');
let app: TestInkstream;
let receivers: Awaited<ReturnType<typeof startReceiverPool>>;
beforeAll(async () => {
  receivers = await startReceiverPool();
  // A long timeout: a hung receiver keeps its requests open for the whole test.
  app = await startInkstream({
    clock,
    env: { INKSTREAM_WEBHOOK_RETRY_DELAYS: '100ms,100ms', INKSTREAM_WEBHOOK_TIMEOUT_MS: '15000' },
  });
  await stopPipeline(app);
});
afterAll(async () => {
  await app.close();
  await receivers.close();
});

const receiver = (): Promise<Receiver> => receivers.start();

test('a receiver that never answers holds only its own slots: the others get everything meanwhile', async () => {
  const dead = await receiver();
  dead.behave(() => 'hang');
  const live = [await receiver(), await receiver()];
  await register(app, dead, { events: ['article.status_changed'] });
  for (const r of live) await register(app, r, { events: ['article.status_changed'] });
  const articles: string[] = [];
  for (let i = 0; i < 20; i++) articles.push(await queueArticle(app, 'test', `Isolation ${i}`));
  const expected = await eventually(async () => {
    const events = (await app.api().get('/events?limit=200')).body.events.filter((event: any) =>
      articles.includes(event.data.id),
    );
    return events.length === 20 && events.map((event: any) => event.id).sort();
  });
  for (const r of live) {
    await eventually(
      () => new Set(r.received.map((request) => request.id)).size === 20,
      5000,
      'every event at a live endpoint',
    );
    expect([...new Set(r.received.map((request) => request.id))].sort()).toEqual(expected);
  }
  // Still hanging (the timeout is 15 s): the dead endpoint has used its 8 slots and no more.
  expect(dead.received.length).toBeLessThanOrEqual(8);
  expect(dead.received.length).toBeGreaterThan(0);
});

test('an endpoint failing for 5 days without a success is disabled, and says why', async () => {
  const flaky = await receiver();
  flaky.behave(() => ({ status: 500 }));
  const endpointId = await register(app, flaky, { events: ['article.status_changed'] });
  const failingFrom = clock.now();
  const articleId = await queueArticle(app, 'test', 'Five days');
  const first = await eventually(async () => {
    const { deliveries } = (await app.api().get(`/webhooks/${endpointId}/deliveries`)).body;
    return deliveries.find((d: any) => d.status === 'retrying');
  });
  expect((await app.api().get(`/webhooks/${endpointId}`)).body.webhook).toMatchObject({
    enabled: true,
    failingSince: failingFrom,
  });

  clock.advance(4 * 24 * 3_600_000);
  await eventually(async () =>
    (await app.api().get(`/webhooks/${endpointId}/deliveries`)).body.deliveries.find(
      (d: any) => d.id === first.id && d.attempts.length === 2,
    ),
  );
  expect((await app.api().get(`/webhooks/${endpointId}`)).body.webhook.enabled).toBe(true);

  clock.advance(24 * 3_600_000);
  const disabled = await eventually(async () => {
    const { webhook } = (await app.api().get(`/webhooks/${endpointId}`)).body;
    return !webhook.enabled && webhook;
  });
  expect(disabled.disabled).toMatchObject({
    reason: 'failing',
    detail: expect.stringMatching(/5 days/),
  });
  expect(disabled.failingSince).toBeNull();
  const settled = await eventually(async () => {
    const { deliveries } = (await app.api().get(`/webhooks/${endpointId}/deliveries`)).body;
    return deliveries.every((d: any) => d.status === 'failed') && deliveries;
  });
  expect(settled.length).toBeGreaterThan(0);
  expect(envelopes(flaky).some((event) => event.data.id === articleId)).toBe(true);

  const enabled = await app.api().patch(`/webhooks/${endpointId}`, { enabled: true });
  expect(enabled.body.webhook).toMatchObject({ enabled: true, disabled: null, failingSince: null });
});
