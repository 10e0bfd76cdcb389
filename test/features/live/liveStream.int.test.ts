import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { openSse, type SseConnection } from '../../support/sseClient.ts';

let inkstream: TestInkstream;
const open: SseConnection[] = [];

beforeAll(async () => {
  inkstream = await startInkstream({ env: { INKSTREAM_LIVE_STREAMS_PER_ACCOUNT: '3' } });
}, 60_000);
afterAll(async () => {
  for (const connection of open) connection.close();
  await inkstream?.close();
});

async function live(
  key: string,
  headers: Record<string, string> = {},
  query = '',
): Promise<SseConnection> {
  const connection = await openSse(`${inkstream.url}/api/v1/live${query}`, {
    authorization: `Bearer ${key}`,
    ...headers,
  });
  open.push(connection);
  return connection;
}

/** A project whose crawl fails at once (nothing listens there): it makes project and crawl changes. */
async function createProject(key: string, name: string): Promise<string> {
  const created = await inkstream
    .api(key)
    .post('/projects', { name, websiteUrl: 'http://127.0.0.1:9/' });
  expect(created.status).toBe(201);
  return created.body.project.id;
}

const crawlEnded = (connection: SseConnection, projectId: string) => () =>
  connection
    .changes()
    .some(
      (change) =>
        change.projectId === projectId && change.kind === 'crawl' && change.status !== 'pending',
    );

test("a stream never carries another account's change", async () => {
  const otherKey = await inkstream.newKey('other-account');
  const mine = await live(inkstream.key);
  const theirs = await live(otherKey);
  const theirProject = await createProject(otherKey, 'Theirs');
  const myProject = await createProject(inkstream.key, 'Mine');
  await expect.poll(crawlEnded(mine, myProject), { timeout: 20_000 }).toBe(true);
  await expect.poll(crawlEnded(theirs, theirProject), { timeout: 20_000 }).toBe(true);
  expect(mine.changes().every((change) => change.projectId === myProject)).toBe(true);
  expect(theirs.changes().every((change) => change.projectId === theirProject)).toBe(true);
  mine.close();
  theirs.close();
});

test('a request without a key is refused with 401', async () => {
  const response = await fetch(`${inkstream.url}/api/v1/live`);
  expect(response.status).toBe(401);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
});

test('a Last-Event-ID that is not a change id, or is ahead of the log, is a clear 400', async () => {
  for (const bad of ['abc', '-5', '1e3', '99999999999999999999']) {
    const connection = await live(inkstream.key, { 'last-event-id': bad });
    expect(connection.status).toBe(400);
    expect(connection.refusal.error.code).toBe('validation_failed');
    expect(connection.refusal.error.message).toMatch(/Last-Event-ID/);
  }
  const byQuery = await live(inkstream.key, {}, '?after=nope');
  expect(byQuery.status).toBe(400);
});

test('an account may hold only so many open streams; one more is 429 with Retry-After', async () => {
  const streams = [await live(inkstream.key), await live(inkstream.key), await live(inkstream.key)];
  expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200]);
  const refused = await live(inkstream.key);
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('10');
  expect(refused.refusal.error.code).toBe('rate_limited');
  expect(refused.refusal.error.message).toMatch(/3 live streams open/);
  // Another account is not affected, and a closed stream frees its place.
  const otherKey = await inkstream.newKey('third-account');
  expect((await live(otherKey)).status).toBe(200);
  streams[0].close();
  await streams[0].ended;
  await expect
    .poll(async () => {
      const again = await live(inkstream.key);
      again.close();
      return again.status;
    })
    .toBe(200);
  for (const stream of streams) stream.close();
});
