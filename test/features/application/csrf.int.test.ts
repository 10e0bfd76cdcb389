import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';

let inkstream: TestInkstream;
beforeAll(async () => { inkstream = await startInkstream(); });
afterAll(() => inkstream.close());

const keyCount = async () => (await inkstream.platform.eventStore.readAll()).filter((event) => event.type === 'ApiKeyCreated').length;

test('a cross-site form post with the session cookie but without the CSRF token is refused and creates nothing', async () => {
  const owner = await signedInMember(inkstream, { email: 'csrf-owner@acme.example', role: 'owner' });
  const before = await keyCount();
  // What an attacker's page makes a browser send: the cookie rides along, the token cannot.
  const forged = await fetch(`${inkstream.url}/app/api/keys`, {
    method: 'POST',
    headers: { cookie: owner.cookie!, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'stolen' }),
  });
  expect(forged.status).toBe(403);
  expect((await forged.json() as any).error.code).toBe('forbidden');
  // Same origin but no token (a script that could not read it), and a wrong token: refused too.
  expect((await owner.request('POST', '/keys', { name: 'no token' }, { 'x-csrf-token': '' })).status).toBe(403);
  expect((await owner.request('POST', '/keys', { name: 'wrong token' }, { 'x-csrf-token': 'A'.repeat(43) })).status).toBe(403);
  // A foreign Origin is refused even with the right token.
  expect((await owner.request('POST', '/keys', { name: 'foreign' }, { origin: 'http://127.0.0.1:1' })).status).toBe(403);
  expect(await keyCount()).toBe(before);

  expect((await owner.request('POST', '/keys', { name: 'real' })).status).toBe(201);
  expect(await keyCount()).toBe(before + 1);
});

test('sign-in from another site is refused before the password is looked at', async () => {
  const crossSite = appSession(inkstream.url, { origin: 'https://evil.example' });
  const response = await crossSite.request('POST', '/sign-in', { email: 'csrf-owner@acme.example', password: 'plum-orchard-lantern-42' });
  expect(response.status).toBe(403);
  expect(response.headers.get('set-cookie')).toBeNull();
});
