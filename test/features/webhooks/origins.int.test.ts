import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';
import { startReceiverPool } from '../../support/webhookReceiver.ts';
import { eventually, queueArticle, register } from './harness.ts';

/**
 * Deliveries are limited per receiver origin (host and port), across endpoints: an account that
 * registers one host many times cannot multiply what Inkstream sends it at once.
 */
const PER_ORIGIN = 3;
let app: TestInkstream;
let receivers: Awaited<ReturnType<typeof startReceiverPool>>;
beforeAll(async () => {
  receivers = await startReceiverPool();
  // A long timeout: a hanging receiver keeps its requests open for the whole test.
  app = await startInkstream({
    env: {
      INKSTREAM_WEBHOOK_CONCURRENCY_PER_ORIGIN: String(PER_ORIGIN),
      INKSTREAM_WEBHOOK_TIMEOUT_MS: '15000',
    },
  });
  await stopPipeline(app);
});
afterAll(async () => {
  await app.close();
  await receivers.close();
});

test('three endpoints on one hanging origin get at most the per-origin limit in flight, while another origin gets every event', async () => {
  const crowded = await receivers.start();
  crowded.behave(() => 'hang');
  const other = await receivers.start();
  for (let i = 0; i < 3; i++) await register(app, crowded, { events: ['article.status_changed'] });
  await register(app, other, { events: ['article.status_changed'] });

  const articles: string[] = [];
  for (let i = 0; i < 10; i++) articles.push(await queueArticle(app, 'test', `Crowded ${i}`));
  // Three endpoints with 8 slots each could hold 24 requests open here; the origin allows 3.
  await eventually(
    () => crowded.received.length === PER_ORIGIN,
    5000,
    'the crowded origin to fill its turns',
  );
  await eventually(
    () => new Set(other.received.map((request) => request.id)).size === 10,
    5000,
    'every event at the other origin',
  );
  expect(crowded.received.length).toBe(PER_ORIGIN);
});
