import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { inviteByName } from '../../../src/features/application/index.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession, linkToken } from '../../support/appSession.ts';
import { OPERATOR } from '../../support/operator.ts';

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'plum-orchard-lantern-42';
// Two fresh installations, each with the clock of its own first start: one link is used in time, one late.
const lateClock = manualClock(new Date().toISOString());
const timelyClock = manualClock(new Date().toISOString());
let late: TestInkstream;
let timely: TestInkstream;
beforeAll(async () => {
  [late, timely] = await Promise.all([
    startInkstream({ clock: lateClock }),
    startInkstream({ clock: timelyClock }),
  ]);
}, 60_000);
afterAll(() => Promise.all([late?.close(), timely?.close()]));

/** The owner's link the first start printed beside the `default` account's key. */
function firstStartLink(inkstream: TestInkstream): string {
  const link = /(http\S+\/set-password#token=[A-Za-z0-9_-]{43})/.exec(inkstream.announced)?.[1];
  expect(link, inkstream.announced).toBeDefined();
  return link!;
}

const joinedEvents = async (inkstream: TestInkstream) =>
  (await inkstream.platform.eventStore.readAll()).filter((event) => event.type === 'MemberJoined')
    .length;

test("the first start's owner link is refused 24 hours and 1 ms after the start, with a message saying so, and nothing is joined or claimed", async () => {
  const link = firstStartLink(late);
  lateClock.advance(DAY + 1);
  const refused = await appSession(late.url).request('POST', '/set-password', {
    token: linkToken(link),
    password: PASSWORD,
    email: 'owner@late.example',
  });
  expect(refused.status).toBe(404);
  expect(refused.body.error).toMatchObject({
    code: 'not_found',
    message: expect.stringMatching(/has expired \(links last 24 hours\)/),
  });
  expect(await joinedEvents(late)).toBe(0);
  expect(
    (
      await appSession(late.url).request('POST', '/sign-in', {
        email: 'owner@late.example',
        password: PASSWORD,
      })
    ).status,
  ).toBe(401);
  // The address the late owner gave is not left claimed: it can still be invited.
  const invited = await inviteByName(late.platform, {
    account: 'default',
    email: 'owner@late.example',
    role: 'owner',
    actor: OPERATOR,
  });
  expect(invited.link.url).toMatch(/set-password#token=/);
});

test("the first start's owner link still works 1 ms before its 24 hours end: the owner sets a password and signs in", async () => {
  const link = firstStartLink(timely);
  timelyClock.advance(DAY - 1);
  const browser = appSession(timely.url);
  const set = await browser.request('POST', '/set-password', {
    token: linkToken(link),
    password: PASSWORD,
    email: 'owner@timely.example',
  });
  expect(set).toMatchObject({
    status: 200,
    body: { email: 'owner@timely.example', account: 'default' },
  });
  const signedIn = await browser.request('POST', '/sign-in', {
    email: 'owner@timely.example',
    password: PASSWORD,
  });
  expect(signedIn.status).toBe(200);
  expect(signedIn.body.member.role).toBe('owner');
});
