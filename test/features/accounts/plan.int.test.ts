import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';

const clock = manualClock('2026-03-15T12:00:00.000Z');
let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream({ clock, pipeline: { schedulerTickMs: 3_600_000 } });
  await stopPipeline(app);
});
afterAll(async () => {
  await app?.close();
});

test('GET /plan without a key is 401, and an account sees only its own usage', async () => {
  const anonymous = await fetch(`${app.url}/api/v1/plan`);
  expect(anonymous.status).toBe(401);
  const forged = await fetch(`${app.url}/api/v1/plan`, {
    headers: { authorization: 'Bearer ink_not-a-real-key' },
  });
  expect(forged.status).toBe(401);

  const busy = app.api(await app.newKey('busy', 'free'));
  expect(
    (await busy.post('/projects', { name: 'Busy', websiteUrl: 'https://busy.example' })).status,
  ).toBe(201);
  const idle = app.api(await app.newKey('idle', 'free'));
  const { body } = await idle.get('/plan');
  expect(body.plan.projects.used).toBe(0);
  expect(body.plan.articles.used).toBe(0);
});

test('a free account sees its articles this month against the quota, its projects against the cap, and that pro lifts both', async () => {
  const api = app.api(await app.newKey('counted', 'free'));
  const {
    body: { project },
  } = await api.post('/projects', { name: 'Counted', websiteUrl: 'https://counted.example' });
  for (const title of ['One', 'Two']) {
    const {
      body: { topic },
    } = await api.post(`/projects/${project.id}/topics`, { title });
    expect((await api.post(`/topics/${topic.id}/write`)).status).toBe(201);
  }
  const { status, body } = await api.get('/plan');
  expect(status).toBe(200);
  expect(body.plan).toMatchObject({
    name: 'free',
    month: '2026-03',
    articles: { used: 2, limit: 10, liftedBy: 'pro' },
    projects: { used: 1, limit: 1, liftedBy: 'pro' },
    webhookEndpoints: { used: 0, limit: 20, liftedBy: null },
  });
  expect(body.plan.features).toContainEqual({
    feature: 'search_analytics',
    name: 'search analytics',
    included: false,
    includedIn: ['pro', 'unlimited'],
  });
  expect(body.plans.map((plan: { name: string }) => plan.name)).toEqual([
    'free',
    'pro',
    'unlimited',
  ]);

  clock.set('2026-04-01T00:00:00.000Z'); // a new month: the quota starts again, the projects stay
  const april = (await api.get('/plan')).body.plan;
  expect(april).toMatchObject({
    month: '2026-04',
    articles: { used: 0, limit: 10 },
    projects: { used: 1 },
  });
});

test('an unlimited account has no caps to lift', async () => {
  const { body } = await app.api().get('/plan');
  expect(body.plan).toMatchObject({
    name: 'unlimited',
    articles: { limit: null, liftedBy: null },
    projects: { limit: null, liftedBy: null },
  });
});
