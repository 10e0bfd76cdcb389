import { afterAll, beforeAll, expect, test } from 'vitest';
import { endLiveStreams } from '../../src/features/live/index.ts';
import { openLiveConnection, type LiveChange } from '../../web/src/live/liveConnection.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let inkstream: TestInkstream;

beforeAll(async () => {
  inkstream = await startInkstream();
}, 60_000);
afterAll(async () => {
  await inkstream?.close();
});

async function createProject(name: string): Promise<string> {
  const created = await inkstream
    .api()
    .post('/projects', { name, websiteUrl: 'http://127.0.0.1:9/' });
  expect(created.status).toBe(201);
  return created.body.project.id;
}

const crawlEnded = (changes: LiveChange[], projectId: string) => () =>
  changes.some(
    (change) =>
      change.projectId === projectId && change.kind === 'crawl' && change.status !== 'pending',
  );

test("the web app's connection renews a refused token, and resumes after the stream ends without a missed or doubled change", async () => {
  const changes: LiveChange[] = [];
  let refusals = 0;
  let opened = 0;
  const connection = openLiveConnection({
    url: `${inkstream.url}/api/v1/live`,
    token: async () => (refusals === 0 ? 'ink_live_no_such_key_at_all' : inkstream.key),
    onUnauthorized: () => {
      refusals++;
    },
    onChange: (change) => changes.push(change),
    onOpen: () => {
      opened++;
    },
    backoffMs: () => 50,
  });
  try {
    // The first token is refused: the connection forgets it and comes back with the next one.
    await expect.poll(() => opened, { timeout: 10_000 }).toBe(1);
    expect(refusals).toBe(1);
    const one = await createProject('One');
    await expect.poll(crawlEnded(changes, one), { timeout: 20_000 }).toBe(true);

    // The server ends the stream (as when it stops); what happens meanwhile arrives after the reconnect.
    endLiveStreams(inkstream.platform);
    const two = await createProject('Two');
    await expect.poll(() => opened, { timeout: 10_000 }).toBe(2);
    const three = await createProject('Three');
    await expect
      .poll(() => crawlEnded(changes, two)() && crawlEnded(changes, three)(), { timeout: 20_000 })
      .toBe(true);

    const ids = changes.map((change) => BigInt(change.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    for (const projectId of [one, two, three]) {
      expect(
        changes
          .filter((change) => change.projectId === projectId)
          .map((change) => change.event)
          .slice(0, 2),
      ).toEqual(['ProjectCreated', 'BrandCrawlRequested']);
    }
  } finally {
    connection.stop();
  }
});
