import { afterAll, beforeAll, expect, test } from 'vitest';
import { resetLinkByName } from '../../../src/features/application/index.ts';
import { appSession, linkToken } from '../../support/appSession.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { signedInMember } from '../../support/signedInMember.ts';

// The loopback is a trusted proxy here, so each request says which client address it comes from.
let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream({ env: { INKSTREAM_TRUSTED_PROXIES: '127.0.0.1' } });
});
afterAll(() => inkstream.close());

const PASSWORD = 'plum-orchard-lantern-42';

const signInFrom = (address: string, email: string, password: string) =>
  appSession(inkstream.url).request(
    'POST',
    '/sign-in',
    { email, password },
    { 'x-forwarded-for': address },
  );

test("a stranger's guesses from another address cannot lock a member out: theirs are held, the member signs in", async () => {
  await signedInMember(inkstream, { email: 'victim@acme.example', role: 'editor' });
  const stranger: number[] = [];
  for (let i = 0; i < 60; i++)
    stranger.push(
      (await signInFrom('203.0.113.9', 'victim@acme.example', `guess-${i}-xyz`)).status,
    );
  expect(stranger.slice(0, 10).every((status) => status === 401)).toBe(true);
  expect(stranger.slice(10).every((status) => status === 429)).toBe(true);
  // The right password from the stranger's address is refused too: that pair's budget is spent.
  expect((await signInFrom('203.0.113.9', 'victim@acme.example', PASSWORD)).status).toBe(429);

  const member = await signInFrom('198.51.100.7', 'victim@acme.example', PASSWORD);
  expect(member.status).toBe(200);
}, 60_000);

test('the addresses of one IPv6 /64 share one budget, and requests refused for it spend nothing of an email', async () => {
  await signedInMember(inkstream, { email: 'second@acme.example', role: 'viewer' });
  const statuses: number[] = [];
  for (let i = 1; i <= 50; i++)
    statuses.push(
      (await signInFrom(`2001:db8:7:7::${i.toString(16)}`, `v6-${i}@acme.example`, 'whatever-1234'))
        .status,
    );
  expect(statuses.every((status) => status === 401)).toBe(true);
  // The /64 is spent: its requests for the member's email are refused for the address, and charge the email nothing.
  for (let i = 0; i < 12; i++) {
    const refused = await signInFrom('2001:db8:7:7::beef', 'second@acme.example', `try-${i}-xyz`);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/for your network address/);
  }
  // Another /64 has its own budget.
  expect((await signInFrom('2001:db8:7:8::1', 'v6-x@acme.example', 'whatever-1234')).status).toBe(
    401,
  );
  // The member, elsewhere, has all ten of their own tries: nine typos are checked, the tenth signs in.
  for (let i = 0; i < 9; i++)
    expect((await signInFrom('192.0.2.45', 'second@acme.example', `own-typo-${i}-x`)).status).toBe(
      401,
    );
  expect((await signInFrom('192.0.2.45', 'second@acme.example', PASSWORD)).status).toBe(200);
}, 60_000);

test('a password set through a reset link clears the count the refusal told the member to reset', async () => {
  await signedInMember(inkstream, { email: 'forgetful@acme.example', role: 'editor' });
  for (let i = 0; i < 10; i++)
    await signInFrom('198.51.100.20', 'forgetful@acme.example', `forgotten-${i}-xyz`);
  const locked = await signInFrom('198.51.100.20', 'forgetful@acme.example', PASSWORD);
  expect(locked.status).toBe(429);
  expect(locked.body.error.message).toMatch(/password reset link/);

  const link = await resetLinkByName(inkstream.platform, {
    account: 'test',
    email: 'forgetful@acme.example',
  });
  const set = await appSession(inkstream.url).request(
    'POST',
    '/set-password',
    { token: linkToken(link.url), password: 'new-orchard-lantern-77' },
    { 'x-forwarded-for': '198.51.100.20' },
  );
  expect(set.status).toBe(200);
  const signedIn = await signInFrom(
    '198.51.100.20',
    'forgetful@acme.example',
    'new-orchard-lantern-77',
  );
  expect(signedIn.status).toBe(200);
});
