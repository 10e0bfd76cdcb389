import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';

let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream();
});
afterAll(() => inkstream.close());

const keyCount = async () =>
  (await inkstream.platform.eventStore.readAll()).filter((event) => event.type === 'ApiKeyCreated')
    .length;

test('a cross-site form post with the session cookie but without the CSRF token is refused and creates nothing', async () => {
  const owner = await signedInMember(inkstream, {
    email: 'csrf-owner@acme.example',
    role: 'owner',
  });
  const before = await keyCount();
  // What an attacker's page makes a browser send: the cookie rides along, the token cannot.
  const forged = await fetch(`${inkstream.url}/app/api/keys`, {
    method: 'POST',
    headers: {
      cookie: owner.cookie!,
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: 'stolen' }),
  });
  expect(forged.status).toBe(403);
  expect(((await forged.json()) as any).error.code).toBe('forbidden');
  // Same origin but no token (a script that could not read it), and a wrong token: refused too.
  expect(
    (await owner.request('POST', '/keys', { name: 'no token' }, { 'x-csrf-token': '' })).status,
  ).toBe(403);
  expect(
    (
      await owner.request(
        'POST',
        '/keys',
        { name: 'wrong token' },
        { 'x-csrf-token': 'A'.repeat(43) },
      )
    ).status,
  ).toBe(403);
  // A foreign Origin is refused even with the right token.
  expect(
    (await owner.request('POST', '/keys', { name: 'foreign' }, { origin: 'http://127.0.0.1:1' }))
      .status,
  ).toBe(403);
  expect(await keyCount()).toBe(before);

  expect((await owner.request('POST', '/keys', { name: 'real' })).status).toBe(201);
  expect(await keyCount()).toBe(before + 1);
});

test('sign-in from another site is refused before the password is looked at', async () => {
  const crossSite = appSession(inkstream.url, { origin: 'https://evil.example' });
  const response = await crossSite.request('POST', '/sign-in', {
    email: 'csrf-owner@acme.example',
    password: 'plum-orchard-lantern-42',
  });
  expect(response.status).toBe(403);
  expect(response.headers.get('set-cookie')).toBeNull();
});

/** The bodies a real <form> can send, each carrying what the endpoint would accept as JSON. */
function formBodies(
  fields: Record<string, string>,
): { encoding: string; body: () => string | FormData; contentType?: string }[] {
  return [
    {
      encoding: 'application/x-www-form-urlencoded',
      contentType: 'application/x-www-form-urlencoded',
      body: () => new URLSearchParams(fields).toString(),
    },
    {
      encoding: 'multipart/form-data',
      body: () => {
        const form = new FormData();
        for (const [key, value] of Object.entries(fields)) form.append(key, value);
        return form;
      },
    },
    // enctype="text/plain" with one field named `{"name":"` and valued `…"}` sends JSON-looking text.
    { encoding: 'text/plain', contentType: 'text/plain', body: () => JSON.stringify(fields) },
  ];
}

/** Where a forged request says it comes from: another site's page, or no Origin at all (a navigation some browsers send without one). */
const CROSS_SITE_SOURCES: { from: string; headers: Record<string, string> }[] = [
  {
    from: 'another Origin',
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  },
  { from: 'no Origin, Sec-Fetch-Site: cross-site', headers: { 'sec-fetch-site': 'cross-site' } },
  {
    from: 'a sibling subdomain (Sec-Fetch-Site: same-site)',
    headers: { 'sec-fetch-site': 'same-site' },
  },
];

test('a real cross-site <form> post (urlencoded, multipart or text/plain) with the session cookie is refused with the JSON error and creates nothing', async () => {
  const owner = await signedInMember(inkstream, {
    email: 'form-target@acme.example',
    role: 'owner',
  });
  const counts = async () => ({
    keys: (await owner.request('GET', '/keys')).body.keys.length,
    members: (await owner.request('GET', '/members')).body.members.length,
  });
  const before = await counts();
  const targets: { path: string; fields: Record<string, string> }[] = [
    { path: '/keys', fields: { name: 'stolen' } },
    { path: '/members', fields: { email: 'mallory@evil.example', role: 'owner' } },
    { path: '/sign-out', fields: {} },
  ];
  for (const { path, fields } of targets) {
    for (const { from, headers } of CROSS_SITE_SOURCES) {
      for (const { encoding, contentType, body } of formBodies(fields)) {
        const forged = await fetch(`${inkstream.url}/app/api${path}`, {
          method: 'POST',
          headers: {
            cookie: owner.cookie!,
            'sec-fetch-mode': 'navigate',
            'sec-fetch-dest': 'document',
            ...(contentType ? { 'content-type': contentType } : {}),
            ...headers,
          },
          body: body(),
        });
        const what = `${path} as ${encoding} from ${from}`;
        // Refused on where it comes from, before its body is read (so before any 415 for the encoding).
        expect(forged.status, what).toBe(403);
        expect(forged.headers.get('content-type'), what).toMatch(/^application\/json/);
        expect(await forged.json(), what).toMatchObject({
          error: {
            code: 'forbidden',
            message: expect.stringContaining('Cross-site request refused'),
          },
        });
        expect(forged.headers.get('set-cookie'), what).toBeNull();
      }
    }
  }
  expect(await counts()).toEqual(before);
  expect((await owner.request('GET', '/me')).status).toBe(200); // the forged sign-outs ended nothing
});

test('an old browser that sends neither Origin nor Sec-Fetch-Site still cannot forge a form post: it has no CSRF token', async () => {
  const owner = await signedInMember(inkstream, {
    email: 'old-browser@acme.example',
    role: 'owner',
  });
  const keys = async () => (await owner.request('GET', '/keys')).body.keys.length;
  const before = await keys();
  for (const { encoding, contentType, body } of formBodies({ name: 'stolen' })) {
    const forged = await fetch(`${inkstream.url}/app/api/keys`, {
      method: 'POST',
      headers: { cookie: owner.cookie!, ...(contentType ? { 'content-type': contentType } : {}) },
      body: body(),
    });
    expect(forged.status, encoding).toBe(403);
    expect(((await forged.json()) as any).error).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('X-CSRF-Token'),
    });
  }
  expect(await keys()).toBe(before);
});
