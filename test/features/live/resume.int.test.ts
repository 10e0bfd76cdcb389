import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { openSse, type SseConnection } from '../../support/sseClient.ts';

let inkstream: TestInkstream;

beforeAll(async () => {
  inkstream = await startInkstream();
}, 60_000);
afterAll(async () => {
  await inkstream?.close();
});

const live = (headers: Record<string, string> = {}, query = '') =>
  openSse(`${inkstream.url}/api/v1/live${query}`, {
    authorization: `Bearer ${inkstream.key}`,
    ...headers,
  });

async function createProject(name: string): Promise<string> {
  const created = await inkstream
    .api()
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

test('a dropped connection resumes with Last-Event-ID: no change missed, none doubled', async () => {
  const first = await live();
  await expect.poll(() => first.events.some((event) => event.event === 'ready')).toBe(true);
  const start = first.events.find((event) => event.event === 'ready')!.id!;
  const one = await createProject('One');
  await expect.poll(crawlEnded(first, one), { timeout: 20_000 }).toBe(true);
  first.close();
  const lastSeen = first.events.filter((event) => event.event === 'message').at(-1)!.id!;

  // While the client is away, more happens; its reconnect sends the last id it received.
  const two = await createProject('Two');
  const three = await createProject('Three');
  const second = await live({ 'last-event-id': lastSeen });
  await expect
    .poll(() => crawlEnded(second, two)() && crawlEnded(second, three)(), { timeout: 20_000 })
    .toBe(true);
  second.close();

  // A client that never dropped, reading from the same start, saw exactly the two halves joined.
  const whole = await live({}, `?after=${start}`);
  const lastOfSecond = second.changes().at(-1).id;
  await expect
    .poll(() => whole.changes().some((change) => change.id === lastOfSecond), { timeout: 20_000 })
    .toBe(true);
  whole.close();
  const resumed = [...first.changes(), ...second.changes()].map((change) => change.id);
  const unbroken = whole
    .changes()
    .map((change) => change.id)
    .filter((id) => BigInt(id) <= BigInt(lastOfSecond));
  expect(resumed).toEqual(unbroken);
  expect(new Set(resumed).size).toBe(resumed.length);
  expect(second.changes().every((change) => BigInt(change.id) > BigInt(lastSeen))).toBe(true);
  expect(
    second
      .changes()
      .some((change) => change.projectId === two && change.event === 'ProjectCreated'),
  ).toBe(true);
});

test("each change carries ids, the event type and the status it sets, and nothing of the event's text", async () => {
  const connection = await live();
  const projectId = await createProject('Acme <script>alert(1)</script>');
  await expect.poll(crawlEnded(connection, projectId), { timeout: 20_000 }).toBe(true);
  connection.close();
  const [created, ...rest] = connection.changes();
  expect(created).toEqual({
    id: expect.stringMatching(/^\d+$/),
    kind: 'project',
    event: 'ProjectCreated',
    projectId,
    status: 'active',
    at: expect.any(String),
  });
  expect(rest.find((change) => change.event === 'BrandCrawlFailed')).toMatchObject({
    kind: 'crawl',
    status: 'failed',
    projectId,
  });
  expect(connection.events.map((event) => event.data).join('\n')).not.toMatch(
    /Acme|script|127\.0\.0\.1/,
  );
});
