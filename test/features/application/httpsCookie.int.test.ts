import { afterAll, beforeAll, expect, test } from 'vitest';
import { inviteByName } from '../../../src/features/application/index.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession, linkToken, type AppSession } from '../../support/appSession.ts';
import { OPERATOR } from '../../support/operator.ts';

const PUBLIC_URL = 'https://ink.acme.example';
const PASSWORD = 'plum-orchard-lantern-42';
let overHttps: TestInkstream;
let overHttp: TestInkstream;
beforeAll(async () => {
  [overHttps, overHttp] = await Promise.all([
    // Behind a proxy on the loopback that passes the public name on (the application answers only it).
    startInkstream({
      env: { INKSTREAM_PUBLIC_URL: PUBLIC_URL, INKSTREAM_TRUSTED_PROXIES: '127.0.0.1' },
    }),
    startInkstream(),
  ]);
}, 60_000);
afterAll(() => Promise.all([overHttps?.close(), overHttp?.close()]));

const forwardedHost = (inkstream: TestInkstream): Record<string, string> =>
  inkstream === overHttps ? { 'x-forwarded-host': new URL(PUBLIC_URL).host } : {};

/** A member joins through their link and signs in from a page of `origin`; the sign-in's answer is returned too. */
async function signIn(inkstream: TestInkstream, email: string, origin: string) {
  const { link } = await inviteByName(inkstream.platform, {
    account: 'test',
    email,
    role: 'editor',
    actor: OPERATOR,
  });
  const browser = appSession(inkstream.url, { origin, headers: forwardedHost(inkstream) });
  expect(
    (
      await browser.request('POST', '/set-password', {
        token: linkToken(link.url),
        password: PASSWORD,
      })
    ).status,
  ).toBe(200);
  const signedIn = await browser.request('POST', '/sign-in', { email, password: PASSWORD });
  expect(signedIn.status).toBe(200);
  return { browser, setCookie: signedIn.headers.get('set-cookie')! };
}

/** A Set-Cookie header as its name, value and attributes (lower-cased names). */
function parseSetCookie(header: string) {
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  const [name, ...value] = pair.split('=');
  const named = new Map(
    attributes.map((attribute) => {
      const [key, ...rest] = attribute.split('=');
      return [key.toLowerCase(), rest.join('=')] as const;
    }),
  );
  return { name, value: value.join('='), attributes: named };
}

const me = (inkstream: TestInkstream, cookie: string) =>
  fetch(`${inkstream.url}/app/api/me`, { headers: { cookie, ...forwardedHost(inkstream) } }).then(
    (response) => response.status,
  );
const tokenOf = (session: AppSession) => session.cookie!.split('=').slice(1).join('=');

test('served over HTTPS, a session token under the plain cookie name is not read: only the __Host- cookie signs in', async () => {
  const { browser } = await signIn(overHttps, 'planted@acme.example', PUBLIC_URL);
  // What a page over plain http, or a sibling subdomain, could plant: the same token without the prefix.
  expect(await me(overHttps, `inkstream_session=${tokenOf(browser)}`)).toBe(401);
  expect(await me(overHttps, `__Host-inkstream_session=${tokenOf(browser)}`)).toBe(200);
});

test('served over HTTPS, the session cookie is __Host-, Secure, HttpOnly, SameSite=Lax, for Path=/ and no Domain; signing out clears that same cookie', async () => {
  const { browser, setCookie } = await signIn(overHttps, 'secure@acme.example', PUBLIC_URL);
  const cookie = parseSetCookie(setCookie);
  expect(cookie.name).toBe('__Host-inkstream_session');
  expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(cookie.attributes.get('path')).toBe('/');
  expect(cookie.attributes.get('samesite')).toBe('Lax');
  expect(cookie.attributes.has('secure')).toBe(true);
  expect(cookie.attributes.has('httponly')).toBe(true);
  expect(cookie.attributes.has('domain')).toBe(false);
  expect((await browser.request('GET', '/me')).status).toBe(200);

  const signedOut = await browser.request('POST', '/sign-out');
  expect(signedOut.status).toBe(204);
  // A browser drops a __Host- cookie only when the clearing one is also Secure, for Path=/.
  const cleared = parseSetCookie(signedOut.headers.get('set-cookie')!);
  expect(cleared).toMatchObject({ name: '__Host-inkstream_session', value: '' });
  expect(cleared.attributes.get('max-age')).toBe('0');
  expect(cleared.attributes.has('secure')).toBe(true);
  expect(cleared.attributes.get('path')).toBe('/');
});

test('served over plain HTTP, the session cookie has neither Secure nor the __Host- prefix (a browser would refuse both there)', async () => {
  const { browser, setCookie } = await signIn(overHttp, 'plain@acme.example', overHttp.url);
  const cookie = parseSetCookie(setCookie);
  expect(cookie.name).toBe('inkstream_session');
  expect(cookie.attributes.has('secure')).toBe(false);
  expect(cookie.attributes.get('path')).toBe('/');
  expect(cookie.attributes.get('samesite')).toBe('Lax');
  expect(cookie.attributes.has('httponly')).toBe(true);
  expect(cookie.attributes.has('domain')).toBe(false);
  expect((await browser.request('GET', '/me')).status).toBe(200);
});
