import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { setAccountPlan } from '../../../src/features/accounts/keys.ts';
import { loadConfig } from '../../../src/core/config.ts';
import { manualClock } from '../../../src/core/clock.ts';
import { createLogger } from '../../../src/core/logger.ts';
import type { StoredEvent } from '../../../src/eventstore/port.ts';
import type { Filter } from '../../../src/readstore/port.ts';
import { schedulerTick } from '../../../src/features/pipeline/schedule/scheduler.ts';
import { startServer } from '../../../src/app/start.ts';
import type { Platform } from '../../../src/platform.ts';
import { openStores, type Stores } from '../../../src/app/stores.ts';
import {
  startInkstream,
  type ApiClient,
  type ApiResponse,
  type TestInkstream,
} from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';

const clock = manualClock('2026-03-31T22:00:00.000Z');
const serverEnv = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  INKSTREAM_ALLOW_PRIVATE_URLS: '1',
  INKSTREAM_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
};
const log = createLogger('silent');

/**
 * The embedded store answers within the same turn of the event loop, so requests in one process
 * hardly interleave. Over a network (EventStoreDB, MongoDB) every call is a round trip; answering
 * each in a later turn lets concurrent requests interleave at every await, as they would there.
 */
function inLaterTurns<T extends object>(store: T, methods: readonly string[]): T {
  return new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!methods.includes(String(property))) return value.bind(target);
      return async (...args: unknown[]) => {
        await new Promise(setImmediate);
        return value.apply(target, args);
      };
    },
  });
}
const networkLike = (stores: Stores): Stores => ({
  ...stores,
  eventStore: inLaterTurns(stores.eventStore, ['append', 'readStream', 'readAll', 'headPosition']),
  readStore: inLaterTurns(stores.readStore, ['get', 'getMany', 'find', 'count']),
});

let app: TestInkstream;
beforeAll(async () => {
  // The scheduler ticks only when a test asks; the pipeline's consumers are stopped so the log holds exactly what the requests wrote.
  app = await startInkstream({
    clock,
    pipeline: { schedulerTickMs: 3_600_000 },
    wrapStores: networkLike,
  });
  await stopPipeline(app);
});
afterAll(async () => {
  await app?.close();
});

async function freeAccount(
  name: string,
): Promise<{ api: ApiClient; accountId: string; projectId: string }> {
  clock.set('2026-03-31T22:00:00.000Z');
  const api = app.api(await app.newKey(name, 'free'));
  const created = await api.post('/projects', { name, websiteUrl: `https://${name}.example` });
  expect(created.status).toBe(201);
  return { api, accountId: accountIdForName(name), projectId: created.body.project.id };
}

async function topics(
  api: ApiClient,
  projectId: string,
  count: number,
  body: object = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++)
    ids.push(
      (await api.post(`/projects/${projectId}/topics`, { title: `Topic ${i}`, ...body })).body.topic
        .id,
    );
  return ids;
}

const statuses = (responses: readonly ApiResponse[]) =>
  responses.map((response) => response.status).sort();
const times = (count: number, status: number) => Array<number>(count).fill(status);

async function accountEvents(
  platform: Platform,
  accountId: string,
  categories: string[],
): Promise<StoredEvent[]> {
  return (await platform.eventStore.readAll({ categories, maxCount: 100_000 })).filter(
    (event) => event.metadata.accountId === accountId,
  );
}
const ofType = (events: readonly StoredEvent[], type: string) =>
  events.filter((event) => event.type === type);
const heldSlots = (events: readonly StoredEvent[]) =>
  ofType(events, 'ArticleSlotTaken').length - ofType(events, 'ArticleSlotReleased').length;

test('fifteen concurrent writes on a free account: ten articles, five 402s naming the quota, nothing written for them', async () => {
  const { api, accountId, projectId } = await freeAccount('racing-writes');
  const topicIds = await topics(api, projectId, 15);
  const responses = await Promise.all(topicIds.map((id) => api.post(`/topics/${id}/write`)));

  expect(statuses(responses)).toEqual([...times(10, 201), ...times(5, 402)]);
  for (const refused of responses.filter((response) => response.status === 402)) {
    expect(refused.body.error).toMatchObject({
      code: 'payment_required',
      message: expect.stringMatching(
        /^Article quota reached: the free plan allows 10 articles per calendar month \(2026-03\)/,
      ),
    });
  }
  const articleIds = responses
    .filter((response) => response.status === 201)
    .map((response) => response.body.article.id)
    .sort();
  const events = await accountEvents(app.platform, accountId, ['article', 'topic', 'usage']);
  expect(
    ofType(events, 'ArticleQueued')
      .map((event) => event.data.articleId)
      .sort(),
  ).toEqual(articleIds);
  expect(
    ofType(events, 'TopicWritten')
      .map((event) => event.data.articleId)
      .sort(),
  ).toEqual(articleIds);
  expect(
    ofType(events, 'ArticleSlotTaken')
      .map((event) => event.data.articleId)
      .sort(),
  ).toEqual(articleIds);
  expect(
    new Set(
      events.filter((event) => event.stream.startsWith('usage-')).map((event) => event.stream),
    ),
  ).toEqual(new Set([`usage-${accountId}_2026-03`, `usage-${accountId}_projects`]));
  const refusedTopics = topicIds.filter((_, index) => responses[index].status === 402);
  for (const id of refusedTopics)
    expect((await api.get(`/topics/${id}`)).body.topic.status).toBe('approved');
});

/** The read models as they are while the log runs ahead of them: they never count an article or a project. */
function lagging(stores: Stores): Stores {
  const readStore = new Proxy(stores.readStore, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== 'count') return typeof value === 'function' ? value.bind(target) : value;
      return (collection: string, filter?: Filter) =>
        collection === 'articles' || collection === 'projects'
          ? Promise.resolve(0)
          : target.count(collection, filter);
    },
  });
  return { ...stores, readStore };
}

test('the ledger does not trust the read models: with counts that lag behind the log, still ten articles and one project', async () => {
  const behind = await startInkstream({
    clock,
    pipeline: { schedulerTickMs: 3_600_000 },
    wrapStores: (stores) => lagging(networkLike(stores)),
  });
  try {
    await stopPipeline(behind);
    clock.set('2026-03-31T22:00:00.000Z');
    const api = behind.api(await behind.newKey('lagging', 'free'));
    const projects = await Promise.all(
      [1, 2, 3].map((n) =>
        api.post('/projects', { name: `Lag ${n}`, websiteUrl: `https://lag${n}.example` }),
      ),
    );
    expect(statuses(projects)).toEqual([201, 402, 402]);
    const topicIds = await topics(
      api,
      projects.find((response) => response.status === 201)!.body.project.id,
      12,
    );
    for (const id of topicIds.slice(0, 9))
      expect((await api.post(`/topics/${id}/write`)).status).toBe(201);
    const lastOnes = await Promise.all(
      topicIds.slice(9).map((id) => api.post(`/topics/${id}/write`)),
    );
    expect(statuses(lastOnes)).toEqual([201, 402, 402]);
    expect(
      ofType(
        await accountEvents(behind.platform, accountIdForName('lagging'), ['article']),
        'ArticleQueued',
      ),
    ).toHaveLength(10);
  } finally {
    await behind.close();
  }
});

test('three concurrent project creations on a free account: one project, two 402s naming the cap', async () => {
  const api = app.api(await app.newKey('racing-projects', 'free'));
  const responses = await Promise.all(
    [1, 2, 3].map((n) =>
      api.post('/projects', { name: `P${n}`, websiteUrl: `https://p${n}.example` }),
    ),
  );
  expect(statuses(responses)).toEqual([201, 402, 402]);
  for (const refused of responses.filter((response) => response.status === 402)) {
    expect(refused.body.error.message).toBe(
      'Project cap reached: the free plan allows 1 project. Upgrade the plan to add more.',
    );
  }
  expect((await api.get('/projects')).body.projects).toHaveLength(1);
  const events = await accountEvents(app.platform, accountIdForName('racing-projects'), [
    'project',
    'usage',
  ]);
  expect(ofType(events, 'ProjectCreated')).toHaveLength(1);
  expect(ofType(events, 'ProjectSlotTaken').map((event) => event.data.projectId)).toEqual([
    ofType(events, 'ProjectCreated')[0].data.projectId,
  ]);
});

test('21 concurrent webhook registrations on the default plan: 20 endpoints, one 402 naming the cap; a deleted endpoint frees its place', async () => {
  const api = app.api(await app.newKey('racing-webhooks'));
  const url = (n: number) => `https://hooks.racing.example/${n}`;
  const responses = await Promise.all(
    times(21, 0).map((_, n) => api.post('/webhooks', { url: url(n) })),
  );
  expect(statuses(responses)).toEqual([...times(20, 201), 402]);
  const refused = responses.find((response) => response.status === 402)!;
  expect(refused.body.error).toMatchObject({
    code: 'payment_required',
    message:
      'Webhook endpoint cap reached: the unlimited plan allows 20 endpoints per account. Delete an endpoint you no longer use (DELETE /api/v1/webhooks/:id), or upgrade the plan.',
  });
  const events = await accountEvents(app.platform, accountIdForName('racing-webhooks'), [
    'webhook',
    'usage',
  ]);
  expect(ofType(events, 'WebhookEndpointRegistered')).toHaveLength(20);
  expect(ofType(events, 'WebhookSlotTaken')).toHaveLength(20);

  const [first] = responses.filter((response) => response.status === 201);
  expect((await api.post('/webhooks', { url: url(21) })).status).toBe(402);
  expect((await api.delete(`/webhooks/${first.body.webhook.id}`)).status).toBe(204);
  expect((await api.post('/webhooks', { url: url(21) })).status).toBe(201);
  expect((await api.post('/webhooks', { url: url(22) })).status).toBe(402);
  expect((await api.get('/webhooks?limit=50')).body.webhooks).toHaveLength(20);
});

test('a write refused with 409 uses no slot: after eight racing writes on one topic, nine more articles still fit', async () => {
  const { api, accountId, projectId } = await freeAccount('conflicting-writes');
  const [contested] = await topics(api, projectId, 1);
  const racing = await Promise.all(times(8, 0).map(() => api.post(`/topics/${contested}/write`)));
  expect(statuses(racing)).toEqual([201, ...times(7, 409)]);
  expect(heldSlots(await accountEvents(app.platform, accountId, ['usage']))).toBe(1);

  const others = await topics(api, projectId, 10);
  const writes = [];
  for (const id of others) writes.push(await api.post(`/topics/${id}/write`));
  expect(writes.map((response) => response.status)).toEqual([...times(9, 201), 402]);
  expect(heldSlots(await accountEvents(app.platform, accountId, ['usage']))).toBe(10);
});

test('unlimited accounts take no slots; articles from before the ledger (or from an uncapped plan) still count', async () => {
  clock.set('2026-03-31T22:00:00.000Z');
  const api = app.api(await app.newKey('upgraded', 'unlimited'));
  const projectId = (await api.post('/projects', { name: 'Up', websiteUrl: 'https://up.example' }))
    .body.project.id;
  for (const id of await topics(api, projectId, 10))
    expect((await api.post(`/topics/${id}/write`)).status).toBe(201);
  expect(await accountEvents(app.platform, accountIdForName('upgraded'), ['usage'])).toEqual([]);

  await setAccountPlan(app.platform, 'upgraded', 'free');
  const [next] = await topics(api, projectId, 1);
  const refused = await api.post(`/topics/${next}/write`);
  expect(refused.status).toBe(402);
  expect(refused.body.error.message).toMatch(
    /Article quota reached: the free plan allows 10 articles/,
  );
  expect(
    (await api.post('/projects', { name: 'Two', websiteUrl: 'https://two.example' })).status,
  ).toBe(402);
  expect(await accountEvents(app.platform, accountIdForName('upgraded'), ['usage'])).toEqual([]);

  await setAccountPlan(app.platform, 'upgraded', 'pro');
  expect((await api.post(`/topics/${next}/write`)).status).toBe(201);
});

test('the scheduler and the API share the count: a tick racing API writes still ends at ten, and the next month starts empty', async () => {
  const { api, accountId, projectId } = await freeAccount('scheduled-race');
  const scheduled = await topics(api, projectId, 12, { scheduledFor: '2026-03-31T21:00:00.000Z' });
  const direct = await topics(api, projectId, 8);
  const [writes] = await Promise.all([
    Promise.all(direct.map((id) => api.post(`/topics/${id}/write`))),
    schedulerTick(app.platform, log),
  ]);
  const events = await accountEvents(app.platform, accountId, ['article']);
  const queued = ofType(events, 'ArticleQueued');
  expect(queued).toHaveLength(10);
  expect(queued.filter((event) => event.data.trigger === 'api')).toHaveLength(
    writes.filter((response) => response.status === 201).length,
  );
  expect(writes.every((response) => response.status === 201 || response.status === 402)).toBe(true);
  await schedulerTick(app.platform, log);
  expect(
    ofType(await accountEvents(app.platform, accountId, ['article']), 'ArticleQueued'),
  ).toHaveLength(10);

  clock.set('2026-04-01T00:00:05.000Z');
  await schedulerTick(app.platform, log);
  const april = ofType(
    await accountEvents(app.platform, accountId, ['article']),
    'ArticleQueued',
  ).filter((event) => String(event.data.at).startsWith('2026-04'));
  const leftOver =
    scheduled.length - queued.filter((event) => event.data.trigger === 'schedule').length;
  expect(leftOver).toBeGreaterThanOrEqual(2); // twelve scheduled, at most ten written in March
  expect(april).toHaveLength(leftOver);
  expect(
    (await app.platform.eventStore.readStream(`usage-${accountId}_2026-04`)).map(
      (event) => event.type,
    ),
  ).toEqual(times(leftOver, 0).map(() => 'ArticleSlotTaken'));
});

test('two servers on one store: concurrent writes through both still end at exactly ten articles', async () => {
  const { api, accountId, projectId } = await freeAccount('two-servers');
  const topicIds = await topics(api, projectId, 15);
  const config = loadConfig({ ...serverEnv, DATA_DIR: app.dataDir });
  const other = await startServer(config, log, {
    clock,
    stores: networkLike(await openStores(config)),
    pipeline: { schedulerTickMs: 3_600_000 },
  });
  try {
    const key = await app.newKey('two-servers', 'free');
    const write = (url: string, topicId: string) =>
      fetch(`${url}/api/v1/topics/${topicId}/write`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
    // Each server writes its half at once; a request that lost three conflicts in a row (409 conflict) is retried, as a client would.
    const outcomes = await Promise.all(
      topicIds.map(async (topicId, index) => {
        for (;;) {
          const response = await write(index % 2 === 0 ? app.url : other.url, topicId);
          const body = (await response.json()) as { error?: { code: string } };
          if (response.status !== 409 || body.error?.code !== 'conflict') return response.status;
        }
      }),
    );
    expect(outcomes.sort()).toEqual([...times(10, 201), ...times(5, 402)]);
    const events = await accountEvents(app.platform, accountId, ['article', 'usage']);
    expect(ofType(events, 'ArticleQueued')).toHaveLength(10);
    expect(heldSlots(events)).toBe(10);
  } finally {
    await other.stop();
  }
});
