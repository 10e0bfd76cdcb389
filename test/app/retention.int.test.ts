import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../src/core/clock.ts';
import { createIdGenerator } from '../../src/core/ids.ts';
import { IDEMPOTENCY_COLLECTION } from '../../src/http/idempotency.ts';
import type { ReadStore } from '../../src/readstore/port.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import {
  DELIVERIES,
  ensureWebhookCollections,
  PUBLIC_EVENTS,
  type FeedDoc,
} from '../../src/features/webhooks/collections.ts';
import {
  newDelivery,
  type DeliveryDoc,
  type DeliveryStatus,
} from '../../src/features/webhooks/delivery/delivery.ts';
import { pruneWebhookHistory } from '../../src/features/webhooks/retention.ts';
import { eventually } from '../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

const DAY = 24 * 3_600_000;
const NOW = Date.parse('2026-05-01T08:00:00.000Z');

let dir: string;
let readStore: ReadStore;
let app: TestInkstream;
const clock = manualClock('2026-05-01T08:00:00.000Z');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'inkstream-retention-'));
  readStore = openSqliteReadStore(join(dir, 'read.db'));
  await ensureWebhookCollections(readStore);
  app = await startInkstream({ clock });
});
afterAll(async () => {
  await app.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

async function feedRow(daysAgo: number): Promise<FeedDoc> {
  const ms = NOW - daysAgo * DAY;
  const doc: FeedDoc = {
    id: createIdGenerator(() => ms).next('evt'),
    accountId: 'acc_1',
    type: 'article.published',
    seq: String(ms),
    createdAt: new Date(ms).toISOString(),
    body: '{}',
  };
  await readStore.save(PUBLIC_EVENTS, doc);
  return doc;
}

async function delivery(
  event: FeedDoc,
  status: DeliveryStatus,
  days: { created: number; updated: number },
): Promise<DeliveryDoc> {
  const createdMs = NOW - days.created * DAY;
  const doc = {
    ...newDelivery({
      id: createIdGenerator(() => createdMs).next('dlv'),
      accountId: 'acc_1',
      endpointId: 'whk_1',
      eventId: event.id,
      eventType: event.type,
      body: null,
      seq: event.seq,
      nowMs: createdMs,
    }),
    status,
    updatedAt: new Date(NOW - days.updated * DAY).toISOString(),
  };
  await readStore.save(DELIVERIES, doc);
  return doc;
}

test('finished deliveries go after 30 days, open ones never; a feed row stays while a delivery still sends it', async () => {
  const sentLongAgo = await feedRow(45);
  const stillRetrying = await feedRow(40);
  const redelivered = await feedRow(35);
  await feedRow(31); // no endpoint: no delivery ever referred to it
  const recent = await feedRow(10);
  await delivery(sentLongAgo, 'succeeded', { created: 45, updated: 45 });
  await delivery(sentLongAgo, 'failed', { created: 45, updated: 31 });
  const kept = [
    await delivery(stillRetrying, 'retrying', { created: 40, updated: 40 }),
    await delivery(stillRetrying, 'pending', { created: 40, updated: 40 }),
    await delivery(redelivered, 'succeeded', { created: 35, updated: 2 }),
    await delivery(recent, 'succeeded', { created: 10, updated: 10 }),
  ];

  expect(await pruneWebhookHistory(readStore, NOW)).toEqual({
    deliveries: 2,
    events: 2,
    attemptHours: 0,
  });

  const ids = async (collection: string) =>
    (await readStore.find(collection, { limit: 100 })).items.map((doc) => doc.id).sort();
  expect(await ids(DELIVERIES)).toEqual(kept.map((doc) => doc.id).sort());
  expect(await ids(PUBLIC_EVENTS)).toEqual(
    [stillRetrying, redelivered, recent].map((doc) => doc.id).sort(),
  );
  expect(await pruneWebhookHistory(readStore, NOW)).toEqual({
    deliveries: 0,
    events: 0,
    attemptHours: 0,
  });
});

test('Idempotency-Key records are deleted once 24 h old; the key then starts a new request', async () => {
  const api = app.api();
  const projectId = (
    await api.post('/projects', { name: 'Acme', websiteUrl: 'https://acme.example' })
  ).body.project.id;
  const headers = { 'idempotency-key': 'retention-1' };
  const first = await api.post(`/projects/${projectId}/topics`, { title: 'Kept a day' }, headers);
  expect(first.status).toBe(201);
  const stored = () => app.platform.readStore.count(IDEMPOTENCY_COLLECTION);
  expect(await stored()).toBe(1);

  clock.advance(DAY - 60_000);
  const replay = await api.post(`/projects/${projectId}/topics`, { title: 'Kept a day' }, headers);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');

  clock.advance(60_000);
  await eventually(stored, (count) => count === 0, {
    what: 'the retention pass to delete the expired record',
  });
  const fresh = await api.post(`/projects/${projectId}/topics`, { title: 'Kept a day' }, headers);
  expect(fresh.status).toBe(201);
  expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  expect(fresh.body.topic.id).not.toBe(first.body.topic.id);
});
