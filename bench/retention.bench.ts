/**
 * Retention under a steady load: DAYS simulated days (default 60) of a busy account on the
 * embedded read store, each hour 80 POSTs with an Idempotency-Key and 20 public events
 * (feed rows) each delivered to 3 webhook endpoints, with the hourly retention passes run
 * on the simulated clock (`expireIdempotencyKeys`, `pruneWebhookHistory`). Prints and writes the
 * rows kept and the file's size at each tenth of the run, and checks that they stop growing once
 * the windows are full (24 h for idempotency records, 30 days for finished deliveries and feed
 * rows) while every delivery of the last 7 days, the success chart's window, is still there.
 * Writes go through the same modules the server uses; only the clock is simulated.
 * Run: npx node bench/retention.bench.ts [DAYS]  → bench/results/retention.json
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveId } from '../src/core/ids.ts';
import { createIdempotency, IDEMPOTENCY_COLLECTION } from '../src/http/idempotency.ts';
import { expireIdempotencyKeys } from '../src/http/idempotencyRetention.ts';
import {
  DELIVERIES,
  ensureWebhookCollections,
  PUBLIC_EVENTS,
  type FeedDoc,
} from '../src/features/webhooks/collections.ts';
import { deliveryIdFor, type DeliveryDoc } from '../src/features/webhooks/delivery/delivery.ts';
import { pruneWebhookHistory } from '../src/features/webhooks/retention.ts';
import { openSqliteReadStore } from '../src/readstore/sqlite.ts';

const DAYS = Number(process.argv[2] ?? 60);
const REQUESTS_PER_HOUR = 80;
const EVENTS_PER_HOUR = 20;
const ENDPOINTS = 3;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CHART_WINDOW = 7 * DAY;
const dir = mkdtempSync(join(tmpdir(), 'ink-bench-retention-'));
const file = join(dir, 'inkstream.sqlite');
const readStore = openSqliteReadStore(file);
await ensureWebhookCollections(readStore);
const startMs = Date.parse('2026-01-01T00:00:00.000Z');
let nowMs = startMs;
const withIdempotency = createIdempotency(readStore, () => nowMs);
const iso = (ms: number) => new Date(ms).toISOString();
const fileBytes = () =>
  statSync(file).size + statSync(`${file}-wal`, { throwIfNoEntry: false })?.size!;
const counts = async () => ({
  idempotencyRecords: await readStore.count(IDEMPOTENCY_COLLECTION),
  deliveries: await readStore.count(DELIVERIES),
  feedRows: await readStore.count(PUBLIC_EVENTS),
});

/** One hour of the steady load: its share of the day's requests and events, then the hourly passes. */
async function hour(n: number): Promise<void> {
  for (let i = 0; i < REQUESTS_PER_HOUR; i++) {
    await withIdempotency(
      {
        accountId: 'acc',
        key: `k-${n}-${i}`,
        method: 'POST',
        path: '/api/v1/projects/p/topics',
        body: { title: `t ${i}` },
      },
      async () => ({ status: 201, body: { topic: { id: `tpc_${n}_${i}`, title: `t ${i}` } } }),
    );
  }
  for (let i = 0; i < EVENTS_PER_HOUR; i++) {
    const at = nowMs + i;
    const eventId = deriveId('evt', at, `domain-${n}-${i}`, 'article.published');
    const body = JSON.stringify({
      id: eventId,
      type: 'article.published',
      createdAt: iso(at),
      data: { articleId: `art_${n}_${i}`, title: 'A published article' },
    });
    const feed: FeedDoc = {
      id: eventId,
      accountId: 'acc',
      type: 'article.published',
      seq: String(at).padStart(20, '0'),
      createdAt: iso(at),
      body,
    };
    const writes = [
      { kind: 'insert_if_absent' as const, collection: PUBLIC_EVENTS, id: eventId, doc: feed },
    ];
    for (let e = 0; e < ENDPOINTS; e++) {
      const id = deliveryIdFor(eventId, `whk_${e}`, iso(at));
      const doc: DeliveryDoc = {
        id,
        accountId: 'acc',
        endpointId: `whk_${e}`,
        eventId,
        eventType: 'article.published',
        body: null,
        seq: feed.seq,
        status: 'succeeded',
        attempts: [
          { at: iso(at), statusCode: 200, latencyMs: 40, responseBody: 'ok', error: null },
        ],
        runAttempts: 0,
        nextAttemptAt: null,
        failureReason: null,
        queue: null,
        due: null,
        rev: 1,
        createdAt: iso(at),
        updatedAt: iso(at),
      };
      writes.push({
        kind: 'insert_if_absent' as const,
        collection: DELIVERIES,
        id,
        doc: doc as unknown as FeedDoc,
      });
    }
    await readStore.commit(writes);
  }
  nowMs += HOUR;
  await expireIdempotencyKeys(readStore, nowMs);
  await pruneWebhookHistory(readStore, nowMs);
}

const samples: Array<{
  day: number;
  idempotencyRecords: number;
  deliveries: number;
  feedRows: number;
  fileMb: number;
}> = [];
const started = performance.now();
for (let day = 1; day <= DAYS; day++) {
  for (let h = 0; h < 24; h++) await hour((day - 1) * 24 + h);
  if (day % Math.max(1, Math.floor(DAYS / 10)) === 0 || day === DAYS) {
    const sample = {
      day,
      ...(await counts()),
      fileMb: Number((fileBytes() / 1_048_576).toFixed(1)),
    };
    samples.push(sample);
    console.log(JSON.stringify(sample));
  }
}
const seconds = (performance.now() - started) / 1000;

// The success chart's window: every delivery created in the last 7 days is still in the log.
const chartCutoff = iso(nowMs - CHART_WINDOW);
let chartKept = 0;
for (let cursor: string | undefined, more = true; more; ) {
  const page = await readStore.find<DeliveryDoc>(DELIVERIES, {
    filter: { endpointId: 'whk_0' },
    sort: { field: 'id', direction: 'desc' },
    limit: 200,
    cursor,
  });
  for (const doc of page.items) if (doc.createdAt >= chartCutoff) chartKept++;
  more = page.nextCursor !== null && page.items.every((doc) => doc.createdAt >= chartCutoff);
  cursor = page.nextCursor ?? undefined;
}
const chartWritten = Math.min(DAYS * 24, CHART_WINDOW / HOUR) * EVENTS_PER_HOUR;
const last = samples[samples.length - 1];
const full = samples.find((sample) => sample.day >= 31) ?? last;
const rowsKept = last.idempotencyRecords + last.deliveries + last.feedRows;
const result = {
  days: DAYS,
  perHour: { requests: REQUESTS_PER_HOUR, events: EVENTS_PER_HOUR, endpoints: ENDPOINTS },
  host: { cpus: cpus().length, loadAverage: loadavg().map((n) => Number(n.toFixed(2))) },
  seconds: Number(seconds.toFixed(1)),
  samples,
  written: {
    idempotencyRecords: DAYS * 24 * REQUESTS_PER_HOUR,
    events: DAYS * 24 * EVENTS_PER_HOUR,
    deliveries: DAYS * 24 * EVENTS_PER_HOUR * ENDPOINTS,
  },
  bytesPerKeptRow: Math.round(fileBytes() / rowsKept),
  chart: { deliveriesOfLast7DaysForOneEndpoint: chartWritten, kept: chartKept },
  checks: {
    bounded:
      DAYS < 40
        ? null
        : last.deliveries <= full.deliveries * 1.05 &&
          last.feedRows <= full.feedRows * 1.05 &&
          last.idempotencyRecords <= 24 * REQUESTS_PER_HOUR,
    chartWindowKept: chartKept === chartWritten,
  },
};
console.log(JSON.stringify(result, null, 2));
await readStore.close();
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results/retention.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
rmSync(dir, { recursive: true, force: true });
