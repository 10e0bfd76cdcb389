import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { injectOtherAccountsEvents } from '../../support/injectEvents.ts';
import { appSession, type AppSession } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';
import { openSse, type SseConnection } from '../../support/sseClient.ts';

const open: SseConnection[] = [];
afterAll(() => {
  for (const connection of open) connection.close();
});

async function live(app: TestInkstream, key: string, headers: Record<string, string> = {}) {
  const connection = await openSse(`${app.url}/api/v1/live`, {
    authorization: `Bearer ${key}`,
    ...headers,
  });
  open.push(connection);
  return connection;
}

async function createProject(app: TestInkstream, name: string): Promise<string> {
  const created = await app.api().post('/projects', { name, websiteUrl: 'http://127.0.0.1:9/' });
  expect(created.status).toBe(201);
  return created.body.project.id;
}

describe('bounded resumes, HEAD and the caps under the account cap', () => {
  let app: TestInkstream;
  beforeAll(async () => {
    app = await startInkstream({
      env: {
        INKSTREAM_LIVE_RESUME_EVENTS: '5',
        INKSTREAM_LIVE_STREAMS_PER_ACCOUNT: '12',
        INKSTREAM_LIVE_STREAMS_PER_CREDENTIAL: '2',
        INKSTREAM_LIVE_STREAMS_PER_MEMBER: '3',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  test('a resume older than the server replays is 410 resume_expired, telling the client to re-read', async () => {
    // Another account's busy log: more events than the process's log tail keeps in memory.
    injectOtherAccountsEvents(app.dataDir, 21_000);
    await createProject(app, 'One');
    // The process's tail reads them (as its consumers' reads would) and keeps the newest ones.
    const head = await app.platform.eventStore.headPosition();
    while (app.platform.tail.heldAfter(0n) !== null)
      await app.platform.tail.read(head, undefined, 1, true);
    const expired = await live(app, app.key, { 'last-event-id': '0' });
    expect(expired.status).toBe(410);
    expect(expired.refusal.error.code).toBe('resume_expired');
    expect(expired.refusal.error.message).toMatch(/read .* again through the API/);
    // A recent id (within the process's log tail) still resumes.
    const recent = await live(app, app.key, { 'last-event-id': String(head - 1n) });
    expect(recent.status).toBe(200);
    recent.close();
  }, 60_000);

  test('HEAD on the stream is answered at once and takes no slot', async () => {
    for (let i = 0; i < 8; i++) {
      const response = await fetch(`${app.url}/api/v1/live`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${app.key}` },
        signal: AbortSignal.timeout(5_000),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    }
    const stream = await live(app, app.key);
    expect(stream.status).toBe(200);
    stream.close();
  });

  test('one key holds at most its share of the account streams; another key of the account still opens one', async () => {
    const key = await app.newKey('test');
    const mine = [await live(app, key), await live(app, key)];
    expect(mine.map((connection) => connection.status)).toEqual([200, 200]);
    const third = await live(app, key);
    expect(third.status).toBe(429);
    expect(third.refusal.error.message).toMatch(/This key \(or access token\) has 2 live streams/);
    const other = await live(app, await app.newKey('test'));
    expect(other.status).toBe(200);
    for (const connection of [...mine, other]) connection.close();
  });

  test("a member's access tokens of every session together hold at most the member's share", async () => {
    const laptop = await signedInMember(app, { email: 'watcher@acme.example', role: 'viewer' });
    const phone = appSession(app.url);
    const signIn = { email: 'watcher@acme.example', password: 'plum-orchard-lantern-42' };
    expect((await phone.request('POST', '/sign-in', signIn)).status).toBe(200);
    const tokenOf = async (session: AppSession) =>
      (await session.request('POST', '/access-token')).body.accessToken as string;
    const [laptopToken, phoneToken] = [await tokenOf(laptop), await tokenOf(phone)];
    const held = [
      await live(app, laptopToken),
      await live(app, laptopToken),
      await live(app, phoneToken),
    ];
    expect(held.map((connection) => connection.status)).toEqual([200, 200, 200]);
    const fourth = await live(app, phoneToken);
    expect(fourth.status).toBe(429);
    expect(fourth.refusal.error.message).toMatch(/You have 3 live streams open/);
    for (const connection of held) connection.close();
  });
});

describe('a replay from the store', () => {
  let app: TestInkstream;
  let ownProject: string;
  beforeAll(async () => {
    app = await startInkstream({
      env: { INKSTREAM_LIVE_RESUME_EVENTS: '100000', INKSTREAM_RATE_LIMIT_PER_MINUTE: '150' },
    });
    injectOtherAccountsEvents(app.dataDir, 20_000);
    ownProject = await createProject(app, 'Mine');
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  test("yields between batches: /healthz is answered while another account's replay reads the log", async () => {
    const order: string[] = [];
    let ready: () => void;
    const readySeen = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const replay = await openSse(
      `${app.url}/api/v1/live?after=0`,
      { authorization: `Bearer ${app.key}` },
      (event) => {
        if (event.event === 'ready') ready();
        if (event.event === 'message' && JSON.parse(event.data).projectId === ownProject)
          order.push('own change');
      },
    );
    open.push(replay);
    expect(replay.status).toBe(200);
    await readySeen;
    const health = await fetch(`${app.url}/healthz`);
    order.push('healthz');
    expect(health.status).toBe(200);
    await expect.poll(() => order.includes('own change'), { timeout: 20_000 }).toBe(true);
    replay.close();
    // The replay had 20,000 other events to read before the account's own change: the health
    // check did not wait for them.
    expect(order[0]).toBe('healthz');
  });

  test("a replay counts against the caller's rate limit, one request per batch it reads", async () => {
    const key = await app.newKey('test');
    const first = await live(app, key, { 'last-event-id': '0' });
    expect(first.status).toBe(200);
    first.close();
    // 20,000 events are 100 batches: a second replay within the minute passes the 150 allowed.
    const second = await live(app, key, { 'last-event-id': '0' });
    expect(second.status).toBe(429);
    expect(second.refusal.error.code).toBe('rate_limited');
    expect(second.refusal.error.message).toMatch(/Rate limit of 150 requests per minute/);
    // Following from now costs one request, as before.
    const fromNow = await live(app, await app.newKey('test'));
    expect(fromNow.status).toBe(200);
    fromNow.close();
  });
});
