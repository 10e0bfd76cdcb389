import { afterAll, beforeAll, expect, test } from 'vitest';
import { IDEMPOTENCY_COLLECTION } from '../../src/http/idempotency.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream({
    resolveHost: async () => [{ address: '93.184.216.34', family: 4 }],
  });
});
afterAll(() => inkstream.close());

test('replaying an Idempotency-Key answers without the once-only signing secret, says so, and the record never held it', async () => {
  const request = () =>
    inkstream
      .api()
      .post(
        '/webhooks',
        { url: 'https://hooks.acme.example/inkstream' },
        { 'idempotency-key': 'create-hook-1' },
      );
  const first = await request();
  expect(first.status).toBe(201);
  const secret = first.body.webhook.secret as string;
  expect(secret.length).toBeGreaterThan(10);

  // Another caller of the account (another key) sending the same key and body.
  const other = await inkstream.newKey('test');
  const replay = await inkstream
    .api(other)
    .post(
      '/webhooks',
      { url: 'https://hooks.acme.example/inkstream' },
      { 'idempotency-key': 'create-hook-1' },
    );
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.headers.get('idempotent-withheld')).toBe('webhook.secret');
  expect(replay.body.webhook.id).toBe(first.body.webhook.id);
  expect(replay.body.webhook).not.toHaveProperty('secret');
  expect(JSON.stringify(replay.body)).not.toContain(secret);

  const records = await inkstream.platform.readStore.find(IDEMPOTENCY_COLLECTION, { limit: 100 });
  expect(JSON.stringify(records.items)).not.toContain(secret);
});
