import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import type { ResolvedAddress } from '../../../src/integrations/safeHttp/index.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { signedInMember } from '../../support/signedInMember.ts';
import { startReceiverPool, type Receiver } from '../../support/webhookReceiver.ts';

/**
 * The test call of the post-publish hook and the list of its last calls. `guarded` runs as
 * production does (no private addresses) with DNS injected: `rebind.example` answers a public
 * address when the hook is saved and loopback afterwards, as a rebinding attacker's name would.
 */
const dns = new Map<string, string>([['rebind.example', '93.184.216.34']]);
const resolveHost = async (hostname: string): Promise<ResolvedAddress[]> => {
  const address = dns.get(hostname);
  if (!address)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};

const clock = manualClock('2026-05-04T09:00:00.000Z');
let guarded: TestInkstream;
let local: TestInkstream;
let receivers: Awaited<ReturnType<typeof startReceiverPool>>;
let receiver: Receiver;

beforeAll(async () => {
  receivers = await startReceiverPool();
  receiver = await receivers.start();
  guarded = await startInkstream({ env: { INKSTREAM_ALLOW_PRIVATE_URLS: '0' }, resolveHost });
  local = await startInkstream({ clock });
});
afterAll(async () => {
  await guarded?.close();
  await local?.close();
  await receivers?.close();
});

const newProject = async (app: TestInkstream, key?: string) =>
  (await app.api(key).post('/projects', { name: 'Hooked', websiteUrl: 'https://hooked.example' }))
    .body.project.id as string;
const hookPath = (projectId: string) => `/projects/${projectId}/integrations/post-publish-hook`;

test('a test call to a hook whose name now resolves to loopback is refused by the guard like a real call: nothing reaches it, the refusal is listed', async () => {
  const projectId = await newProject(guarded);
  const url = `https://rebind.example:${receiver.port}/hook`;
  expect((await guarded.api().put(hookPath(projectId), { url })).status).toBe(200);
  dns.set('rebind.example', '127.0.0.1');

  const tried = await guarded.api().post(`${hookPath(projectId)}/test`);
  expect(tried.status).toBe(200);
  expect(tried.body.call).toMatchObject({
    kind: 'test',
    ok: false,
    statusCode: null,
    attempt: 1,
    error: expect.stringMatching(/^Refused to connect/),
  });
  expect(tried.body.call.error).not.toMatch(/127\.0\.0\.1|loopback/);
  expect(receiver.received).toHaveLength(0);
  expect((await guarded.api().get(`${hookPath(projectId)}/calls`)).body.calls).toEqual([
    tried.body.call,
  ]);
});

test("a test call needs a hook (404), the caller's own project (404) and a role that may write (403 for a viewer)", async () => {
  const projectId = await newProject(local);
  expect((await local.api().post(`${hookPath(projectId)}/test`)).status).toBe(404);

  const stranger = local.api(await local.newKey('stranger'));
  expect((await local.api().put(hookPath(projectId), { url: receiver.url })).status).toBe(200);
  expect((await stranger.post(`${hookPath(projectId)}/test`)).status).toBe(404);
  expect((await stranger.get(`${hookPath(projectId)}/calls`)).status).toBe(404);

  const viewer = await signedInMember(local, { email: 'auditor@hooked.example', role: 'viewer' });
  const {
    body: { accessToken },
  } = await viewer.request('POST', '/access-token');
  const asViewer = local.api(accessToken);
  expect((await asViewer.post(`${hookPath(projectId)}/test`)).status).toBe(403);
  expect((await asViewer.get(`${hookPath(projectId)}/calls`)).body.calls).toEqual([]);
  expect(receiver.received).toHaveLength(0);
});

test('a test call is one signed POST of a test event; the last 20 calls are listed newest first with status and time', async () => {
  const projectId = await newProject(local);
  const set = await local.api().put(hookPath(projectId), { url: receiver.url });
  receiver.secret = set.body.postPublishHook.secret;
  receiver.behave((_request, count) => ({ status: count % 2 === 0 ? 500 : 204 }));
  const before = receiver.received.length;

  const made = [];
  for (let i = 0; i < 22; i++) {
    clock.advance(1000);
    made.push((await local.api().post(`${hookPath(projectId)}/test`)).body.call);
  }
  expect(receiver.received.length - before).toBe(22);
  const first = receiver.received[before];
  expect(first.verified).toBe(true);
  expect(JSON.parse(first.body.toString())).toMatchObject({
    type: 'post_publish_hook.test',
    id: made[0].eventId,
    data: { projectId },
  });
  expect(made[0]).toMatchObject({
    kind: 'test',
    ok: true,
    statusCode: 204,
    at: '2026-05-04T09:00:01.000Z',
    error: null,
  });
  expect(made.filter((call) => !call.ok)).toEqual(
    made.filter((_call, i) => (before + i + 1) % 2 === 0),
  );
  expect(made.find((call) => !call.ok)).toMatchObject({
    statusCode: 500,
    error: expect.stringContaining('answered 500'),
  });

  const listed = (await local.api().get(`${hookPath(projectId)}/calls`)).body.calls;
  expect(listed).toEqual(made.slice(2).reverse());
});
