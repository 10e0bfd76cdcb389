import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { signedInMember } from '../../support/signedInMember.ts';

let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream();
});
afterAll(() => inkstream.close());

const v1 = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${inkstream.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
const projectEvents = async () =>
  (await inkstream.platform.eventStore.readAll()).filter((event) => event.type === 'ProjectCreated')
    .length;

test('a viewer reads through /api/v1 but cannot write there (403, nothing appended) nor reach the keys area; it reads the members and cannot change them', async () => {
  const viewer = await signedInMember(inkstream, { email: 'auditor@acme.example', role: 'viewer' });
  expect((await viewer.request('POST', '/keys', { name: 'mine' })).status).toBe(403);
  expect((await viewer.request('GET', '/keys')).status).toBe(403);
  const {
    body: { members },
  } = await viewer.request('GET', '/members');
  const me = members.find((member: { email: string }) => member.email === 'auditor@acme.example');
  expect(me).toMatchObject({
    role: 'viewer',
    status: 'active',
    invitedAt: expect.any(String),
    joinedAt: expect.any(String),
  });
  expect(
    (await viewer.request('POST', '/members', { email: 'friend@acme.example', role: 'owner' }))
      .status,
  ).toBe(403);
  expect((await viewer.request('PATCH', `/members/${me.id}`, { role: 'owner' })).status).toBe(403);
  expect((await viewer.request('DELETE', `/members/${me.id}`)).status).toBe(403);

  const {
    body: { accessToken },
  } = await viewer.request('POST', '/access-token');
  expect((await v1(accessToken, 'GET', '/projects')).status).toBe(200);
  const before = await projectEvents();
  const write = await v1(accessToken, 'POST', '/projects', {
    name: 'Nope',
    websiteUrl: 'https://nope.example',
  });
  expect(write.status).toBe(403);
  expect(((await write.json()) as any).error.code).toBe('forbidden');
  expect(await projectEvents()).toBe(before);
});

test('an editor writes through /api/v1 with an access token, and the event names the member as its actor', async () => {
  const editor = await signedInMember(inkstream, { email: 'editor@acme.example', role: 'editor' });
  const me = await editor.request('GET', '/me');
  expect((await editor.request('POST', '/keys', { name: 'mine' })).status).toBe(403); // keys are the owners'
  const {
    body: { accessToken, expiresAt },
  } = await editor.request('POST', '/access-token');
  expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60 * 1000);
  const created = await v1(accessToken, 'POST', '/projects', {
    name: 'Edited',
    websiteUrl: 'https://edited.example',
  });
  expect(created.status).toBe(201);
  const { project } = (await created.json()) as any;
  const history = (await (
    await v1(accessToken, 'GET', `/projects/${project.id}/history`)
  ).json()) as any;
  expect(history.history[0].actor).toEqual({ kind: 'member', memberId: me.body.member.id });
});

test("an owner who turns an editor into a viewer ends the editor's access tokens at once", async () => {
  const owner = await signedInMember(inkstream, { email: 'boss@acme.example', role: 'owner' });
  const editor = await signedInMember(inkstream, { email: 'demoted@acme.example', role: 'editor' });
  const {
    body: { accessToken },
  } = await editor.request('POST', '/access-token');
  const {
    body: { member },
  } = await editor.request('GET', '/me');
  expect(
    (await owner.request('PATCH', `/members/${member.id}`, { role: 'viewer' })).body.member.role,
  ).toBe('viewer');
  expect((await v1(accessToken, 'GET', '/projects')).status).toBe(401);
  const renewed = (await editor.request('POST', '/access-token')).body.accessToken;
  expect(
    (await v1(renewed, 'POST', '/projects', { name: 'Nope', websiteUrl: 'https://nope.example' }))
      .status,
  ).toBe(403);
});

test('the account keeps an owner: the last one can be neither demoted nor removed', async () => {
  const fresh = await startInkstream();
  try {
    const only = await signedInMember(fresh, { email: 'solo@acme.example', role: 'owner' });
    const {
      body: { member },
    } = await only.request('GET', '/me');
    expect((await only.request('PATCH', `/members/${member.id}`, { role: 'editor' })).status).toBe(
      409,
    );
    expect((await only.request('DELETE', `/members/${member.id}`)).status).toBe(409);
  } finally {
    await fresh.close();
  }
});
