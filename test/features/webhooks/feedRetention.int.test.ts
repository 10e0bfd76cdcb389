import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { createIdGenerator } from '../../../src/core/ids.ts';
import {
  pruneWebhookHistory,
  WEBHOOK_RETENTION_MS,
} from '../../../src/features/webhooks/retention.ts';
import { eventually } from '../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';

const DAY_MS = 86_400_000;
const clock = manualClock('2026-03-01T00:00:00.000Z');
let app: TestInkstream;
let firstEventId: string;

beforeAll(async () => {
  app = await startInkstream({ clock });
  const api = app.api();
  const {
    body: { project },
  } = await api.post('/projects', { name: 'Feed', websiteUrl: 'https://feed.example' });
  const {
    body: { topic },
  } = await api.post(`/projects/${project.id}/topics`, { title: 'Kept a while' });
  await api.post(`/topics/${topic.id}/write`);
  const { body } = await eventually(
    () => api.get('/events'),
    (response) => response.body.events?.length > 0,
    { what: 'a public event in the feed' },
  );
  firstEventId = body.events[0].id;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

test('an after that names no event of this feed, and is not older than retention, is still a 400 that changes nothing', async () => {
  const recentUnknown = createIdGenerator(() => clock.nowMs()).next('evt');
  for (const after of [recentUnknown, 'evt_not-an-id', "evt_0' OR 1=1 --"]) {
    const response = await app.api().get(`/events?after=${encodeURIComponent(after)}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
  }
});

test('a feed cursor older than retention gets 410 cursor_expired saying what to do, not a silent gap', async () => {
  expect((await app.api().get(`/events?after=${firstEventId}`)).status).toBe(200);
  clock.advance(WEBHOOK_RETENTION_MS + DAY_MS);
  const pruned = await pruneWebhookHistory(app.platform.readStore, clock.nowMs());
  expect(pruned.events).toBeGreaterThan(0);

  const response = await app.api().get(`/events?after=${firstEventId}`);
  expect(response.status).toBe(410);
  expect(response.body.error.code).toBe('cursor_expired');
  expect(response.body.error.message).toContain('30 days');
  expect(response.body.error.message).toContain('without after');
  // Starting again without the cursor works.
  expect((await app.api().get('/events')).status).toBe(200);
});
