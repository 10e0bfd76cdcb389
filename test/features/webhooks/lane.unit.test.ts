import { expect, test } from 'vitest';
import { dueKey } from '../../../src/readstore/dueKey.ts';
import { newDelivery, type DeliveryDoc } from '../../../src/features/webhooks/delivery/delivery.ts';
import { createLane } from '../../../src/features/webhooks/delivery/lane.ts';
import { eventually } from './harness.ts';

/** A queue of stored deliveries and a receiver that answers when told to: the lane's two sides. */
function world(count: number) {
  const rows = new Map<string, DeliveryDoc>();
  for (let i = 0; i < count; i++) {
    const id = `dlv_${String(i).padStart(3, '0')}`;
    rows.set(
      id,
      newDelivery({
        id,
        accountId: 'acc',
        endpointId: 'whk',
        eventId: `evt_${i}`,
        eventType: 't',
        body: '{}',
        seq: String(i).padStart(5, '0'),
        nowMs: 1000,
      }),
    );
  }
  const waiting: Array<() => void> = [];
  const started: string[] = [];
  let active = 0;
  let maxActive = 0;
  return {
    rows,
    started,
    waiting,
    maxActive: () => maxActive,
    fetch: async (limit: number) =>
      [...rows.values()]
        .filter((doc) => doc.queue)
        .sort((a, b) => (a.due! < b.due! ? -1 : 1))
        .slice(0, limit),
    async deliver(doc: DeliveryDoc): Promise<DeliveryDoc> {
      started.push(doc.id);
      active += 1;
      maxActive = Math.max(maxActive, active);
      await new Promise<void>((resolve) => waiting.push(resolve));
      active -= 1;
      const done = { ...doc, status: 'succeeded' as const, queue: null, due: null };
      rows.set(doc.id, done);
      return done;
    },
  };
}

test('a lane sends in due order, never more than its concurrency at once, and drains a queue larger than a fetch', async () => {
  const w = world(25);
  const lane = createLane({
    concurrency: 3,
    batchSize: 10,
    nowMs: () => 5000,
    fetch: w.fetch,
    deliver: w.deliver,
    onError: (e) => {
      throw e;
    },
  });
  lane.wake();
  await eventually(() => w.waiting.length === 3);
  expect(w.started).toEqual(['dlv_000', 'dlv_001', 'dlv_002']);
  while ([...w.rows.values()].some((doc) => doc.queue)) {
    w.waiting.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(w.maxActive()).toBe(3);
  expect(w.started).toEqual([...w.rows.keys()]);
  await lane.stop();
});

test('a delivery not yet due waits for its time, then goes', async () => {
  const w = world(1);
  let now = 1000;
  const row = w.rows.get('dlv_000')!;
  w.rows.set(row.id, { ...row, due: dueKey(1030, row.seq) });
  const lane = createLane({
    concurrency: 1,
    batchSize: 10,
    nowMs: () => now,
    fetch: w.fetch,
    deliver: w.deliver,
    onError: (e) => {
      throw e;
    },
  });
  lane.wake();
  await new Promise((resolve) => setImmediate(resolve));
  expect(w.started).toEqual([]);
  now = 1030;
  await eventually(() => w.started.length === 1, 2000);
  w.waiting.shift()!();
  await lane.stop();
});

test('stop aborts what is in flight and sends nothing more', async () => {
  const w = world(5);
  const aborted: string[] = [];
  const lane = createLane({
    concurrency: 2,
    batchSize: 10,
    nowMs: () => 5000,
    fetch: w.fetch,
    onError: () => {},
    deliver: (doc, signal) =>
      new Promise((_resolve, reject) => {
        w.started.push(doc.id);
        signal.addEventListener('abort', () => {
          aborted.push(doc.id);
          reject(signal.reason);
        });
      }),
  });
  lane.wake();
  await eventually(() => w.started.length === 2);
  await lane.stop();
  expect(aborted).toEqual(['dlv_000', 'dlv_001']);
  lane.wake();
  await new Promise((resolve) => setImmediate(resolve));
  expect(w.started).toHaveLength(2);
});

test('offered deliveries are sent without a fetch, in due order, once the lane has looked at its endpoint', async () => {
  const w = world(2);
  let fetches = 0;
  const lane = createLane({
    concurrency: 4,
    batchSize: 10,
    nowMs: () => 5000,
    deliver: w.deliver,
    onError: (e) => {
      throw e;
    },
    fetch: async (limit) => {
      fetches += 1;
      return w.fetch(limit);
    },
  });
  lane.wake();
  await eventually(() => w.started.length === 2);
  const offered = [5, 3, 4].map((i) =>
    newDelivery({
      id: `dlv_new${i}`,
      accountId: 'acc',
      endpointId: 'whk',
      eventId: `evt_new${i}`,
      eventType: 't',
      body: '{}',
      seq: String(i).padStart(5, '0'),
      nowMs: 1000,
    }),
  );
  lane.offer(offered);
  await eventually(() => w.started.length === 4);
  expect(w.started.slice(2)).toEqual(['dlv_new3', 'dlv_new4']);
  expect(fetches).toBe(1);
  while (w.waiting.length) {
    w.waiting.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(w.started).toEqual(['dlv_000', 'dlv_001', 'dlv_new3', 'dlv_new4', 'dlv_new5']);
  await lane.stop();
});
