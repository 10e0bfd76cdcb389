import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  MEMBER_EMAILS,
  MEMBER_PROFILES,
  SESSIONS,
} from '../../../src/features/application/collections.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';

let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream();
});
afterAll(() => inkstream.close());

const v1 = (token: string, path: string) =>
  fetch(`${inkstream.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });

test("a session of one account cannot read or change another account's data", async () => {
  const otherKey = await inkstream.newKey('globex');
  const theirs = await inkstream
    .api(otherKey)
    .post('/projects', { name: 'Globex', websiteUrl: 'https://globex.example' });
  const owner = await signedInMember(inkstream, {
    email: 'acme-owner@acme.example',
    role: 'owner',
  });

  const {
    body: { accessToken },
  } = await owner.request('POST', '/access-token');
  expect((await v1(accessToken, `/projects/${theirs.body.project.id}`)).status).toBe(404);
  expect(
    ((await (await v1(accessToken, '/projects')).json()) as any).projects.map(
      (p: { id: string }) => p.id,
    ),
  ).not.toContain(theirs.body.project.id);

  const ownKeyIds = (await owner.request('GET', '/keys')).body.keys.map(
    (key: { id: string }) => key.id,
  );
  const foreign = (
    await inkstream.platform.readStore.find<{ id: string; accountId: string }>('api_keys', {
      filter: {},
      limit: 200,
    })
  ).items.find((key) => !ownKeyIds.includes(key.id))!;
  expect((await owner.request('POST', `/keys/${foreign.id}/rotate`)).status).toBe(404);
  expect((await owner.request('DELETE', `/keys/${foreign.id}`)).status).toBe(404);
  expect((await inkstream.api(otherKey).get('/projects')).status).toBe(200); // their key still works

  const stranger = await signedInMember(inkstream, {
    account: 'globex',
    email: 'globex-viewer@globex.example',
    role: 'viewer',
  });
  const seen = JSON.stringify((await stranger.request('GET', '/members')).body.members);
  expect(seen).toContain('globex-viewer@globex.example');
  expect(seen).not.toContain('acme-owner@acme.example');
  const {
    body: { member },
  } = await owner.request('GET', '/me');
  expect(
    (await stranger.request('PATCH', `/members/${member.id}`, { role: 'viewer' })).status,
  ).toBe(403);
});

test('rotating a key in the keys area shows the new key once; the old one gets 401 at once', async () => {
  const owner = await signedInMember(inkstream, { email: 'rotator@acme.example', role: 'owner' });
  const created = await owner.request('POST', '/keys', { name: 'deploy' });
  expect((await v1(created.body.secret, '/projects')).status).toBe(200);
  const rotated = await owner.request('POST', `/keys/${created.body.key.id}/rotate`);
  expect(rotated.status).toBe(201);
  expect((await v1(created.body.secret, '/projects')).status).toBe(401);
  expect((await v1(rotated.body.secret, '/projects')).status).toBe(200);
  const keys = (await owner.request('GET', '/keys')).body.keys;
  expect(
    keys.find((key: { id: string }) => key.id === created.body.key.id).revokedAt,
  ).not.toBeNull();
  expect(keys.find((key: { id: string }) => key.id === rotated.body.key.id)).toMatchObject({
    name: 'deploy',
    revokedAt: null,
    lastUsedAt: expect.any(String),
  });
  expect(JSON.stringify(keys)).not.toContain(rotated.body.secret);
});

test("revoking a key: another account's or an unknown id is 404, a viewer or editor 403, and each leaves the key working; the owner's own revoke gets it 401 at once", async () => {
  const owner = await signedInMember(inkstream, { email: 'revoker@acme.example', role: 'owner' });
  const own = (await owner.request('POST', '/keys', { name: 'ci runner' })).body;
  await inkstream.newKey('initech');
  const theirOwner = await signedInMember(inkstream, {
    account: 'initech',
    email: 'initech-owner@initech.example',
    role: 'owner',
  });
  const theirs = (await theirOwner.request('POST', '/keys', { name: 'initech deploy' })).body;
  const notOwners = [
    await signedInMember(inkstream, { email: 'revoke-viewer@acme.example', role: 'viewer' }),
    await signedInMember(inkstream, { email: 'revoke-editor@acme.example', role: 'editor' }),
  ];
  const before = await inkstream.platform.eventStore.headPosition();

  const foreign = await owner.request('DELETE', `/keys/${theirs.key.id}`);
  expect(foreign.status).toBe(404);
  expect(foreign.body.error.code).toBe('not_found');
  expect((await v1(theirs.secret, '/projects')).status).toBe(200);
  expect((await owner.request('DELETE', '/keys/key_doesnotexist')).status).toBe(404);
  for (const member of notOwners) {
    const refused = await member.request('DELETE', `/keys/${own.key.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
  }
  expect((await v1(own.secret, '/projects')).status).toBe(200);
  expect(await inkstream.platform.eventStore.headPosition()).toBe(before); // the refusals appended nothing

  expect((await owner.request('DELETE', `/keys/${own.key.id}`)).status).toBe(204);
  const refusedNow = await v1(own.secret, '/projects');
  expect(refusedNow.status).toBe(401);
  expect(
    (await owner.request('GET', '/keys')).body.keys.find(
      (key: { id: string }) => key.id === own.key.id,
    ).revokedAt,
  ).toEqual(expect.any(String));
  expect((await owner.request('DELETE', `/keys/${own.key.id}`)).status).toBe(409); // already revoked: nothing to do twice
  expect((await v1(theirs.secret, '/projects')).status).toBe(200);
});

test('removing a member erases their email, name, password hash and sessions; the log keeps only their id', async () => {
  const owner = await signedInMember(inkstream, { email: 'remover@acme.example', role: 'owner' });
  const leaver = await signedInMember(inkstream, { email: 'leaver@acme.example', role: 'editor' });
  const {
    body: { member },
  } = await leaver.request('GET', '/me');
  expect((await owner.request('DELETE', `/members/${member.id}`)).status).toBe(204);

  expect((await leaver.request('GET', '/me')).status).toBe(401);
  expect(
    (
      await appSession(inkstream.url).request('POST', '/sign-in', {
        email: 'leaver@acme.example',
        password: 'plum-orchard-lantern-42',
      })
    ).status,
  ).toBe(401);
  const stored = JSON.stringify(
    await Promise.all(
      [MEMBER_PROFILES, MEMBER_EMAILS, SESSIONS].map((collection) =>
        inkstream.platform.readStore.find(collection, { filter: {}, limit: 200 }),
      ),
    ),
  );
  expect(stored).not.toContain('leaver@acme.example');
  expect(stored).not.toContain(member.id);
  const log = await inkstream.platform.eventStore.readAll();
  expect(
    JSON.stringify(log, (_key, value) => (typeof value === 'bigint' ? String(value) : value)),
  ).not.toContain('leaver@acme.example');
  expect(
    log.filter((event) => event.data.memberId === member.id).map((event) => event.type),
  ).toEqual(['MemberInvited', 'MemberJoined', 'MemberRemoved']);
  expect(
    (await owner.request('GET', '/members')).body.members.map((m: { id: string }) => m.id),
  ).not.toContain(member.id);
  // The address is free again: the same person can be invited anew.
  expect(
    (await owner.request('POST', '/members', { email: 'leaver@acme.example', role: 'viewer' }))
      .status,
  ).toBe(201);
});

test('bad input to the application is 400 with the field named, and appends nothing', async () => {
  const owner = await signedInMember(inkstream, { email: 'careful@acme.example', role: 'owner' });
  const before = await inkstream.platform.eventStore.headPosition();
  for (const body of [
    { email: 'not-an-email' },
    { email: 'x@acme.example', role: 'admin' },
    'not json',
    { email: 'x'.repeat(300) + '@a.example' },
  ]) {
    const response = await owner.request('POST', '/members', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toMatch(/validation_failed|bad_request/);
  }
  expect((await owner.request('POST', '/keys', { name: '' })).body.error.details[0].path).toBe(
    'body.name',
  );
  expect((await owner.request('POST', '/members', { email: 'careful@acme.example' })).status).toBe(
    409,
  );
  expect(await inkstream.platform.eventStore.headPosition()).toBe(before);
});
