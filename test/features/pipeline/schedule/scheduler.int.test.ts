import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../../../src/core/config.ts';
import { manualClock } from '../../../../src/core/clock.ts';
import { createLogger } from '../../../../src/core/logger.ts';
import { schedulerTick } from '../../../../src/features/pipeline/schedule/scheduler.ts';
import { startServer, type RunningServer } from '../../../../src/app/start.ts';
import type { Platform } from '../../../../src/platform.ts';
import { startInkstream, type ApiClient } from '../../../support/inkstream.ts';
import { startTestSite, type TestSite } from '../../../support/testSite.ts';

const clock = manualClock('2026-01-05T10:00:00.000Z'); // a Monday
const log = createLogger('silent');
let site: TestSite;
let plans: string;
beforeAll(async () => {
  site = await startTestSite();
  plans = mkdtempSync(join(tmpdir(), 'inkstream-plans-'));
  writeFileSync(
    join(plans, 'plans.json'),
    JSON.stringify({ free: { articlesPerMonth: 1 }, pro: {}, unlimited: {} }),
  );
});
afterAll(async () => {
  await site?.close();
  rmSync(plans, { recursive: true, force: true });
});

const weekly = {
  enabled: true,
  articlesPerWeek: 1,
  days: ['tue'],
  time: '09:00',
  timezone: 'Europe/Berlin',
  minApprovedBacklog: 3,
};

async function project(client: ApiClient, settings: object = { cadence: weekly }) {
  return (await client.post('/projects', { name: 'Crumb', websiteUrl: site.origin, settings })).body
    .project.id as string;
}
const topic = (client: ApiClient, projectId: string, body: object) =>
  client.post(`/projects/${projectId}/topics`, body).then((r) => r.body.topic);
const articles = (platform: Platform, projectId: string) =>
  platform.eventStore
    .readAll({ categories: ['article'] })
    .then((events) =>
      events
        .filter((event) => event.type === 'ArticleQueued' && event.data.projectId === projectId)
        .map((event) => event.data),
    );

test('a cadence slot writes the highest-priority approved topic once, even when ticked again after a restart', async () => {
  clock.set('2026-01-05T10:00:00.000Z');
  const app = await startInkstream({ clock });
  const api = app.api();
  const projectId = await project(api);
  const topics = [
    await topic(api, projectId, { title: 'Low', priority: 10 }),
    await topic(api, projectId, { title: 'High', priority: 90 }),
    await topic(api, projectId, { title: 'Mid', priority: 50 }),
  ];
  await schedulerTick(app.platform, log);
  expect(await articles(app.platform, projectId)).toEqual([]);

  clock.set('2026-01-06T08:00:30.000Z'); // Tuesday 09:00:30 in Berlin
  await schedulerTick(app.platform, log);
  await schedulerTick(app.platform, log);
  const written = await articles(app.platform, projectId);
  expect(written).toEqual([expect.objectContaining({ topicId: topics[1].id, trigger: 'cadence' })]);
  const research = (await api.get(`/projects/${projectId}`)).body.project.research;
  expect(research).toMatchObject({ runId: expect.stringMatching(/^run_/) }); // 2 approved left < 3

  await app.stop();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: app.dataDir,
    LOG_LEVEL: 'silent',
    INKSTREAM_ALLOW_PRIVATE_URLS: '1',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  });
  let restarted: RunningServer | undefined;
  try {
    restarted = await startServer(config, log, { clock });
    await schedulerTick(restarted.platform, log);
    expect(await articles(restarted.platform, projectId)).toHaveLength(1);
    const requests = (
      await restarted.platform.eventStore.readStream(`project-${projectId}`)
    ).filter((event) => event.type === 'TopicResearchRequested');
    expect(requests).toHaveLength(1);
    expect(requests[0].data).toMatchObject({ reason: 'cadence' });
  } finally {
    await restarted?.stop();
    rmSync(app.dataDir, { recursive: true, force: true });
  }
});

test('a topic is written when its scheduledFor comes, once; paused projects and accounts over quota are left alone', async () => {
  clock.set('2026-02-02T10:00:00.000Z');
  const app = await startInkstream({
    clock,
    env: { INKSTREAM_PLANS_FILE: join(plans, 'plans.json') },
  });
  const api = app.api();
  const projectId = await project(api, {});
  const scheduled = await topic(api, projectId, {
    title: 'Timed',
    scheduledFor: '2026-02-03T12:00:00Z',
  });
  const pausedId = await project(api, { cadence: weekly });
  await topic(api, pausedId, { title: 'Would be written', scheduledFor: '2026-02-03T12:00:00Z' });
  await api.patch(`/projects/${pausedId}`, { paused: true });
  const free = app.api(await app.newKey('small', 'free'));
  const quotaId = await project(free, { cadence: weekly });
  const first = await topic(free, quotaId, { title: 'Uses the quota' });
  await topic(free, quotaId, { title: 'Over the quota', scheduledFor: '2026-02-03T12:00:00Z' });
  expect((await free.post(`/topics/${first.id}/write`)).status).toBe(201);

  clock.set('2026-02-03T11:59:59.000Z');
  await schedulerTick(app.platform, log);
  expect(await articles(app.platform, projectId)).toEqual([]);

  clock.set('2026-02-03T12:00:00.000Z');
  await schedulerTick(app.platform, log);
  await schedulerTick(app.platform, log);
  expect(await articles(app.platform, projectId)).toEqual([
    expect.objectContaining({ topicId: scheduled.id, trigger: 'schedule' }),
  ]);
  expect(await articles(app.platform, pausedId)).toEqual([]);
  expect((await articles(app.platform, quotaId)).map((article) => article.trigger)).toEqual([
    'api',
  ]);
  await app.close();
});
