import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type ApiClient, type TestInkstream } from '../support/inkstream.ts';

let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream();
});
afterAll(async () => {
  await app.close();
});

async function burst(client: ApiClient, count: number) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await client.get('/projects')).status);
  return statuses;
}

test('by default a key gets exactly 120 requests a minute: request 121 is 429 with Retry-After and RateLimit headers', async () => {
  const client = app.api(await app.newKey('limited'));
  const first = await client.get('/projects');
  expect(first.headers.get('ratelimit-limit')).toBe('120');
  expect(first.headers.get('ratelimit-remaining')).toBe('119');
  expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
  expect(Number(first.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(60);
  expect(await burst(client, 119)).toEqual(Array(119).fill(200));
  const limited = await client.get('/projects');
  expect(limited.status).toBe(429);
  expect(limited.body.error).toMatchObject({
    code: 'rate_limited',
    message: expect.stringContaining('120 requests per minute'),
  });
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(limited.headers.get('ratelimit-limit')).toBe('120');
  expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  expect(
    (await client.post('/projects', { name: 'x', websiteUrl: 'https://x.example' })).status,
  ).toBe(429);
});

test("one key's traffic never limits another key, even of the same account", async () => {
  const busy = app.api(await app.newKey('busy'));
  const quiet = app.api(await app.newKey('quiet'));
  const sameAccount = app.api(await app.newKey('busy'));
  await burst(busy, 121);
  expect((await busy.get('/projects')).status).toBe(429);
  const other = await quiet.get('/projects');
  expect(other.status).toBe(200);
  expect(other.headers.get('ratelimit-remaining')).toBe('119');
  expect((await sameAccount.get('/projects')).status).toBe(200);
});

test('INKSTREAM_RATE_LIMIT_PER_MINUTE sets the limit', async () => {
  const small = await startInkstream({ env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '3' } });
  try {
    const statuses = await burst(small.api(), 4);
    expect(statuses).toEqual([200, 200, 200, 429]);
  } finally {
    await small.close();
  }
});
