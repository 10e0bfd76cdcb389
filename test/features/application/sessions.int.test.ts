import { OPERATOR } from '../../support/operator.ts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import {
  firstOwnerLink,
  inviteByName,
  resetLinkByName,
} from '../../../src/features/application/index.ts';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession, joinAndSignIn, linkToken } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';

const HOUR = 60 * 60 * 1000;
const clock = manualClock(new Date().toISOString());
let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream({ clock });
});
afterAll(() => inkstream.close());

test('a session idle for 12 hours is refused, and one kept busy still ends 7 days after sign-in', async () => {
  const idle = await signedInMember(inkstream, { email: 'idle@acme.example', role: 'editor' });
  clock.advance(12 * HOUR - 60_000);
  expect((await idle.request('GET', '/me')).status).toBe(200);
  clock.advance(12 * HOUR + 1);
  const expired = await idle.request('GET', '/me');
  expect(expired.status).toBe(401);
  expect(expired.body.error.message).toMatch(/sign in again/);

  const busy = await signedInMember(inkstream, { email: 'busy@acme.example', role: 'editor' });
  for (let hours = 0; hours < 7 * 24 - 6; hours += 6) {
    clock.advance(6 * HOUR);
    expect((await busy.request('GET', '/me')).status).toBe(200);
  }
  clock.advance(6 * HOUR);
  expect((await busy.request('GET', '/me')).status).toBe(401);
});

test('signing out ends the session and its access token; a member lists their sessions and revokes another one', async () => {
  const laptop = await signedInMember(inkstream, {
    email: 'two-devices@acme.example',
    role: 'editor',
  });
  const phone = appSession(inkstream.url);
  expect(
    (
      await phone.request(
        'POST',
        '/sign-in',
        { email: 'two-devices@acme.example', password: 'plum-orchard-lantern-42' },
        { 'user-agent': 'Phone' },
      )
    ).status,
  ).toBe(200);
  const {
    body: { accessToken },
  } = await phone.request('POST', '/access-token');
  const projects = () =>
    fetch(`${inkstream.url}/api/v1/projects`, {
      headers: { authorization: `Bearer ${accessToken}` },
    }).then((r) => r.status);
  expect(await projects()).toBe(200);

  const listed = await laptop.request('GET', '/sessions');
  expect(listed.body.sessions).toHaveLength(2);
  const phoneSession = listed.body.sessions.find(
    (session: { current: boolean }) => !session.current,
  );
  expect(phoneSession.userAgent).toBe('Phone');
  expect((await laptop.request('DELETE', `/sessions/${phoneSession.id}`)).status).toBe(204);
  expect((await phone.request('GET', '/me')).status).toBe(401);
  expect(await projects()).toBe(401);

  expect((await laptop.request('POST', '/sign-out')).status).toBe(204);
  expect(laptop.cookie).toBeNull();
  expect((await laptop.request('GET', '/sessions')).status).toBe(401);
});

test("a one-time link works once and for 24 hours; a reset link ends the member's sessions", async () => {
  const { link } = await inviteByName(inkstream.platform, {
    account: 'test',
    email: 'late@acme.example',
    role: 'viewer',
    actor: OPERATOR,
  });
  clock.advance(24 * HOUR + 1);
  const late = await appSession(inkstream.url).request('POST', '/set-password', {
    token: linkToken(link.url),
    password: 'plum-orchard-lantern-42',
  });
  expect(late.status).toBe(404);
  expect(late.body.error.message).toMatch(/expired/);

  const member = await signedInMember(inkstream, {
    email: 'forgetful@acme.example',
    role: 'editor',
  });
  const reset = await resetLinkByName(inkstream.platform, {
    account: 'test',
    email: 'forgetful@acme.example',
  });
  const again = await joinAndSignIn(
    inkstream.url,
    reset.url,
    'forgetful@acme.example',
    'new-long-passphrase-99',
  );
  expect((await member.request('GET', '/me')).status).toBe(401); // the old session ended with the reset
  expect((await again.request('GET', '/me')).status).toBe(200);
  const reuse = await appSession(inkstream.url).request('POST', '/set-password', {
    token: linkToken(reset.url),
    password: 'yet-another-phrase-11',
  });
  expect(reuse.status).toBe(404);
  expect(
    (
      await appSession(inkstream.url).request('POST', '/sign-in', {
        email: 'forgetful@acme.example',
        password: 'plum-orchard-lantern-42',
      })
    ).status,
  ).toBe(401);
});

test("two tabs redeem the first owner's link at once with different emails: one joins, and the other's email is not left claimed", async () => {
  const printed = await firstOwnerLink(inkstream.platform, accountIdForName('test'));
  const token = linkToken(/(http\S+set-password#token=\S+)/.exec(printed)![1]);
  const redeem = (email: string) =>
    appSession(inkstream.url).request('POST', '/set-password', {
      token,
      password: 'plum-orchard-lantern-42',
      email,
    });
  const answers = await Promise.all([
    redeem('first-tab@acme.example'),
    redeem('second-tab@acme.example'),
  ]);
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1); // the link works once
  const refused = answers.findIndex((answer) => answer.status !== 200);
  const unclaimed = refused === 0 ? 'first-tab@acme.example' : 'second-tab@acme.example';
  const invited = await inviteByName(inkstream.platform, {
    account: 'test',
    email: unclaimed,
    role: 'editor',
    actor: OPERATOR,
  });
  expect(invited.link.url).toMatch(/set-password#token=/);
});
