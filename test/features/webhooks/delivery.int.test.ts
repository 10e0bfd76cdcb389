import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';
import { startReceiverPool, type Receiver } from '../../support/webhookReceiver.ts';
import { articleCommand, envelopes, eventually, queueArticle, register } from './harness.ts';

let app: TestInkstream;
let receivers: Awaited<ReturnType<typeof startReceiverPool>>;
beforeAll(async () => {
  receivers = await startReceiverPool();
  app = await startInkstream({
    env: { INKSTREAM_WEBHOOK_RETRY_DELAYS: '50ms,50ms,50ms', INKSTREAM_WEBHOOK_TIMEOUT_MS: '400' },
  });
  await stopPipeline(app); // the tests move articles through their states themselves
});
afterAll(async () => {
  await app.close();
  await receivers.close();
});

const receiver = (): Promise<Receiver> => receivers.start();

const queuedEventOf = (r: Receiver, articleId: string) =>
  envelopes(r).find((event) => event.data.id === articleId && event.data.status === 'queued');

async function deliveriesOf(endpointId: string, key?: string) {
  return (await app.api(key).get(`/webhooks/${endpointId}/deliveries?limit=200`)).body
    .deliveries as any[];
}

test('a status change arrives signed, as the envelope with the full article, and is logged', async () => {
  const r = await receiver();
  const endpointId = await register(app, r);
  const articleId = await queueArticle(app, 'test', 'Signed deliveries');
  const event = await eventually(() => queuedEventOf(r, articleId));
  const request = r.received.find((received) => received.id === event.id)!;
  expect(request.verified).toBe(true);
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
  expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(
    60,
  );
  expect(Object.keys(event)).toEqual(['id', 'type', 'createdAt', 'data']);
  expect(event).toMatchObject({
    type: 'article.status_changed',
    data: {
      id: articleId,
      status: 'queued',
      previousStatus: null,
      prUrl: null,
      title: 'Signed deliveries',
      version: 0,
    },
  });
  expect(event.id).toMatch(/^evt_[0-9a-z]{26}$/);
  expect(new Date(event.createdAt).toISOString()).toBe(event.createdAt);

  const logged = await eventually(async () =>
    (await deliveriesOf(endpointId)).find(
      (d) => d.eventId === event.id && d.status === 'succeeded',
    ),
  );
  expect(logged).toMatchObject({
    type: 'article.status_changed',
    nextAttemptAt: null,
    attempts: [{ statusCode: 204, error: null }],
  });
  expect(logged.attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
  const detail = await app.api().get(`/webhooks/${endpointId}/deliveries/${logged.id}`);
  expect(detail.body.delivery.payload).toBe(request.body.toString('utf8'));
});

test('every endpoint gets the same id and bytes; an events filter keeps the rest away', async () => {
  const all = await receiver();
  const published = await receiver();
  await register(app, all);
  await register(app, published, { events: ['article.published'] });
  const articleId = await queueArticle(app);
  await articleCommand(app, 'test', articleId, {
    type: 'StartResearch',
    at: app.platform.clock.now(),
  });
  await articleCommand(app, 'test', articleId, {
    type: 'FailStep',
    step: 'researching',
    reason: 'test',
    at: app.platform.clock.now(),
  });
  await articleCommand(app, 'test', articleId, {
    type: 'RetryArticle',
    at: app.platform.clock.now(),
  });
  const feed = await eventually(async () => {
    const events = (await app.api().get('/events?limit=200')).body.events.filter(
      (event: any) => event.data.id === articleId,
    );
    return events.length >= 4 && events;
  });
  expect(feed.map((event: any) => event.data.status)).toEqual([
    'queued',
    'researching',
    'failed',
    'researching',
  ]);
  await eventually(
    () => envelopes(all).filter((event) => event.data.id === articleId).length === 4,
  );
  for (const event of feed) {
    const copy = all.received.find((request) => request.id === event.id)!;
    expect(JSON.parse(copy.body.toString('utf8'))).toEqual(event);
  }
  expect(envelopes(published).filter((event) => event.data.id === articleId)).toEqual([]);
});

test('ArticleMerged gives article.status_changed and article.published, with distinct ids', async () => {
  const r = await receiver();
  await register(app, r, { events: ['article.published'] });
  const articleId = await queueArticle(app);
  const at = () => app.platform.clock.now();
  await articleCommand(app, 'test', articleId, { type: 'StartResearch', at: at() });
  await articleCommand(app, 'test', articleId, {
    type: 'RecordResearch',
    outline: [],
    keyPoints: [],
    sources: [],
    generation: {
      provider: 'test',
      model: null,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    },
    at: at(),
  });
  await articleCommand(app, 'test', articleId, {
    type: 'RecordDraft',
    version: 1,
    mdx: '---\ntitle: Merged\n---\n\nHello.\n',
    slug: 'merged',
    title: 'Merged',
    wordCount: 1,
    cover: null,
    purpose: 'write',
    generation: {
      provider: 'test',
      model: null,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    },
    at: at(),
  });
  await articleCommand(app, 'test', articleId, {
    type: 'ApproveArticle',
    mode: 'direct',
    at: at(),
  });
  await articleCommand(app, 'test', articleId, {
    type: 'RecordMerged',
    commitSha: 'abc',
    prUrl: null,
    path: 'posts/merged.mdx',
    mergedBy: null,
    at: at(),
  });
  const event = await eventually(() => envelopes(r).find((e) => e.data.id === articleId));
  expect(event).toMatchObject({
    type: 'article.published',
    data: {
      status: 'merged',
      previousStatus: 'publishing',
      slug: 'merged',
      version: 1,
      path: 'posts/merged.mdx',
    },
  });
  const feed = (await app.api().get('/events?limit=200')).body.events.filter(
    (e: any) => e.data.id === articleId && e.data.status === 'merged',
  );
  expect(feed.map((e: any) => e.type)).toEqual(['article.status_changed', 'article.published']);
  expect(feed[0].id).not.toBe(feed[1].id);
  expect(feed[1].id).toBe(event.id);
});

test('a 500 is retried on the short schedule with the same id and bytes until it succeeds', async () => {
  const r = await receiver();
  const endpointId = await register(app, r, { events: ['article.status_changed'] });
  const tries = new Map<string, number>();
  r.behave((request) => {
    const n = (tries.get(request.id) ?? 0) + 1;
    tries.set(request.id, n);
    return n <= 2 ? { status: 500, body: 'x'.repeat(5000) } : { status: 200, body: 'ok' };
  });
  const articleId = await queueArticle(app);
  const event = await eventually(() => queuedEventOf(r, articleId));
  const delivery = await eventually(
    async () =>
      (await deliveriesOf(endpointId)).find(
        (d) => d.eventId === event.id && d.status === 'succeeded',
      ),
    5000,
  );
  expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([500, 500, 200]);
  expect(delivery.attempts[0].responseBody).toHaveLength(2048);
  expect(delivery.attempts[0].error).toMatch(/answered 500/);
  const copies = r.received.filter((request) => request.id === event.id);
  expect(copies).toHaveLength(3);
  expect(new Set(copies.map((copy) => copy.body.toString('base64'))).size).toBe(1);
  expect(copies.every((copy) => copy.verified)).toBe(true);
});

test('timeouts, redirects and closed connections are failures, retried, and redirects are not followed', async () => {
  const target = await receiver();
  const endpoints: Array<[string, Receiver]> = [];
  for (const misbehave of ['hang', 'redirect', 'destroy'] as const) {
    const r = await receiver();
    r.behave((_request, count) => {
      if (count > 1) return { status: 204 };
      if (misbehave === 'redirect') return { status: 307, headers: { location: target.url } };
      return misbehave;
    });
    endpoints.push([await register(app, r, { events: ['article.status_changed'] }), r]);
  }
  const articleId = await queueArticle(app);
  for (const [endpointId, r] of endpoints) {
    const event = await eventually(() => queuedEventOf(r, articleId));
    const delivery = await eventually(
      async () =>
        (await deliveriesOf(endpointId)).find(
          (d) => d.eventId === event.id && d.status === 'succeeded',
        ),
      5000,
    );
    expect(delivery.attempts.length).toBeGreaterThanOrEqual(2);
    expect(
      delivery.attempts[0].statusCode === null || delivery.attempts[0].statusCode === 307,
    ).toBe(true);
    expect(delivery.attempts[0].error).toBeTruthy();
  }
  const [hang, redirect, destroy] = await Promise.all(
    endpoints.map(async ([id, r]) => {
      const event = queuedEventOf(r, articleId);
      return (await deliveriesOf(id)).find((d) => d.eventId === event.id).attempts[0]
        .error as string;
    }),
  );
  expect(hang).toMatch(/did not answer completely within 400 ms/);
  expect(redirect).toMatch(
    /redirected \(307 to https:\/\/127\.0\.0\.1:\d+\/hook\); redirects are not followed/,
  );
  expect(destroy).toMatch(/closed the connection/);
  expect(target.received).toEqual([]);
});

test('a 410 disables the endpoint, which says so, and it receives nothing more', async () => {
  const r = await receiver();
  r.behave(() => ({ status: 410 }));
  const endpointId = await register(app, r, { events: ['article.status_changed'] });
  await queueArticle(app);
  const disabled = await eventually(async () => {
    const { webhook } = (await app.api().get(`/webhooks/${endpointId}`)).body;
    return !webhook.enabled && webhook;
  });
  expect(disabled.disabled).toMatchObject({ reason: 'gone', detail: expect.stringMatching(/410/) });
  const settled = await eventually(async () => {
    const deliveries = await deliveriesOf(endpointId);
    return deliveries.length > 0 && deliveries.every((d) => d.status === 'failed')
      ? deliveries
      : null;
  });
  expect(settled.some((d: any) => d.attempts[0]?.statusCode === 410)).toBe(true);
  const seen = r.received.length;
  const later = await queueArticle(app);
  await eventually(async () =>
    (await app.api().get('/events?limit=200')).body.events.some((e: any) => e.data.id === later),
  );
  expect(
    (await deliveriesOf(endpointId)).some(
      (d) =>
        d.createdAt > disabled.disabled.at &&
        d.type === 'article.status_changed' &&
        d.status !== 'failed',
    ),
  ).toBe(false);
  expect(r.received.length).toBe(seen);
  expect((await app.api().post(`/webhooks/${endpointId}/test`)).status).toBe(409);
});

test('after the schedule is exhausted a delivery fails; redeliver sends the same bytes again', async () => {
  const r = await receiver();
  let down = true;
  r.behave(() => (down ? { status: 503 } : { status: 202 }));
  const endpointId = await register(app, r, { events: ['article.status_changed'] });
  const articleId = await queueArticle(app);
  const event = await eventually(() => queuedEventOf(r, articleId));
  const failed = await eventually(
    async () =>
      (await deliveriesOf(endpointId)).find((d) => d.eventId === event.id && d.status === 'failed'),
    5000,
  );
  expect(failed.attempts).toHaveLength(4);
  expect(failed.failureReason).toMatch(/Gave up after 4 attempts/);
  expect((await app.api().get(`/webhooks/${endpointId}`)).body.webhook.failingSince).not.toBeNull();
  down = false;
  const redelivered = await app
    .api()
    .post(`/webhooks/${endpointId}/deliveries/${failed.id}/redeliver`);
  expect(redelivered.status).toBe(202);
  const done = await eventually(async () =>
    (await deliveriesOf(endpointId)).find((d) => d.id === failed.id && d.status === 'succeeded'),
  );
  expect(done.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503, 503, 202]);
  const copies = r.received.filter((request) => request.id === event.id);
  expect(new Set(copies.map((copy) => copy.body.toString('base64'))).size).toBe(1);
  expect((await app.api().get(`/webhooks/${endpointId}`)).body.webhook.failingSince).toBeNull();
  expect(
    (
      await app
        .api()
        .post(`/webhooks/${endpointId}/deliveries/dlv_01m80v0gaj4xcr1bwv1t19vqds/redeliver`)
    ).status,
  ).toBe(404);
});

test('POST /webhooks/:id/test sends a signed webhook.test to that endpoint only', async () => {
  const target = await receiver();
  const bystander = await receiver();
  const endpointId = await register(app, target);
  await register(app, bystander);
  const response = await app.api().post(`/webhooks/${endpointId}/test`);
  expect(response.status).toBe(202);
  expect(response.body.delivery).toMatchObject({ type: 'webhook.test', status: 'pending' });
  const test = await eventually(() =>
    envelopes(target).find((event) => event.type === 'webhook.test'),
  );
  expect(test).toMatchObject({ id: response.body.delivery.eventId, data: { endpointId } });
  expect(target.received.find((request) => request.id === test.id)!.verified).toBe(true);
  expect(envelopes(bystander).some((event) => event.type === 'webhook.test')).toBe(false);
  const feed = (await app.api().get('/events?limit=200')).body.events;
  expect(feed.some((event: any) => event.type === 'webhook.test')).toBe(false);
});

test("endpoints see only their own account's events, in the feed as in deliveries", async () => {
  const mine = await receiver();
  const theirs = await receiver();
  const otherKey = await app.newKey('neighbour');
  await register(app, mine, { events: ['article.status_changed'] });
  await register(app, theirs, { key: otherKey, events: ['article.status_changed'] });
  const myArticle = await queueArticle(app, 'test');
  const theirArticle = await queueArticle(app, 'neighbour');
  await eventually(() => queuedEventOf(mine, myArticle) && queuedEventOf(theirs, theirArticle));
  expect(envelopes(mine).some((event) => event.data.id === theirArticle)).toBe(false);
  expect(envelopes(theirs).some((event) => event.data.id === myArticle)).toBe(false);
  const theirFeed = (await app.api(otherKey).get('/events?limit=200')).body.events;
  expect(theirFeed.every((event: any) => event.data.id === theirArticle)).toBe(true);
  const mineFirst = (await app.api().get('/events?limit=1')).body.events[0].id;
  const peek = await app.api(otherKey).get(`/events?after=${mineFirst}`);
  expect(peek.status).toBe(400);
});

test('the feed pages with after, filters by type, and resumes where the client stopped', async () => {
  const key = await app.newKey('reader');
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(await queueArticle(app, 'reader', `Feed ${i}`));
  await articleCommand(app, 'reader', ids[0], {
    type: 'StartResearch',
    at: app.platform.clock.now(),
  });
  const everything = await eventually(async () => {
    const events = (await app.api(key).get('/events?limit=200')).body.events;
    return events.length === 4 && events;
  });
  // Log order.
  expect(everything.map((event: any) => [event.data.id, event.data.status])).toEqual([
    [ids[0], 'queued'],
    [ids[1], 'queued'],
    [ids[2], 'queued'],
    [ids[0], 'researching'],
  ]);
  const first = await app.api(key).get('/events?limit=3');
  expect(first.body.hasMore).toBe(true);
  expect(first.body.nextCursor).toBe(everything[2].id);
  const rest = await app.api(key).get(`/events?after=${first.body.nextCursor}&limit=3`);
  expect(rest.body.events.map((event: any) => event.id)).toEqual(
    everything.slice(3).map((event: any) => event.id),
  );
  expect(rest.body.hasMore).toBe(false);
  const caughtUp = await app.api(key).get(`/events?after=${rest.body.nextCursor}`);
  expect(caughtUp.body).toEqual({ events: [], nextCursor: rest.body.nextCursor, hasMore: false });
  const statusChanges = await app.api(key).get('/events?type=article.status_changed&limit=200');
  expect(statusChanges.body.events).toHaveLength(4);
  expect((await app.api(key).get('/events?type=brand.crawled')).body.events).toEqual([]);
  expect((await app.api(key).get('/events?type=nope')).status).toBe(400);
  expect((await app.api(key).get('/events?after=evt_nope')).status).toBe(400);
});

test('disabling through PATCH settles what waits and stops deliveries; enabling resumes with new events', async () => {
  const r = await receiver();
  let answer = 500;
  r.behave(() => ({ status: answer }));
  const endpointId = await register(app, r, { events: ['article.status_changed'] });
  const before = await queueArticle(app);
  const waiting = await eventually(async () =>
    (await deliveriesOf(endpointId)).find((d) => d.status === 'retrying'),
  );
  expect(
    (await app.api().patch(`/webhooks/${endpointId}`, { enabled: false })).body.webhook.disabled
      .reason,
  ).toBe('user');
  // Every delivery settled (one still in flight at the PATCH stays retrying until its attempt ends).
  const settled = await eventually(async () => {
    const deliveries = await deliveriesOf(endpointId);
    return deliveries.every((d) => d.status === 'failed')
      ? deliveries.find((d) => d.id === waiting.id)
      : null;
  });
  expect(settled.failureReason).toMatch(/disabled/);
  const seen = r.received.length;
  const during = await queueArticle(app);
  await eventually(async () =>
    (await app.api().get('/events?limit=200')).body.events.some((e: any) => e.data.id === during),
  );
  answer = 204;
  await app.api().patch(`/webhooks/${endpointId}`, { enabled: true });
  const after = await queueArticle(app);
  await eventually(() => queuedEventOf(r, after));
  expect(
    r.received.slice(seen).map((request) => JSON.parse(request.body.toString('utf8')).data.id),
  ).toEqual([after]);
  expect(envelopes(r).some((event) => event.data.id === before)).toBe(true);
});
