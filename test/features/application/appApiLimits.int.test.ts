import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { expireAccessTokens, ACCESS_TOKENS } from '../../../src/http/accessTokens.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession, type AppSession } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';

const PER_MINUTE = 20;
const clock = manualClock(new Date().toISOString());
let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream({
    clock,
    env: {
      INKSTREAM_APP_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      INKSTREAM_TRUSTED_PROXIES: '127.0.0.1',
    },
  });
});
afterAll(() => inkstream.close());

const projects = (bearer: string) =>
  fetch(`${inkstream.url}/api/v1/projects`, { headers: { authorization: `Bearer ${bearer}` } });
const accessToken = (session: AppSession) => session.request('POST', '/access-token');

test('a session minting access tokens in a loop is held at its rate limit, and every token it got is the same one', async () => {
  const viewer = await signedInMember(inkstream, { email: 'minter@acme.example', role: 'viewer' });
  const answers = [];
  for (let i = 0; i < PER_MINUTE + 5; i++) answers.push(await accessToken(viewer));
  const issued = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status === 429);
  expect(issued.length).toBeLessThanOrEqual(PER_MINUTE);
  expect(refused.length).toBeGreaterThanOrEqual(5);
  expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThan(0);
  expect(refused[0].body.error.message).toMatch(/requests per minute exceeded for this session/);
  expect(new Set(issued.map((answer) => answer.body.accessToken)).size).toBe(1);
  // Another member of the account is not held by it.
  const colleague = await signedInMember(inkstream, {
    email: 'colleague@acme.example',
    role: 'viewer',
  });
  expect((await accessToken(colleague)).status).toBe(200);
});

test('a session holds at most two live access tokens; expired ones go with the retention pass', async () => {
  const member = await signedInMember(inkstream, { email: 'tabs@acme.example', role: 'editor' });
  const first = (await accessToken(member)).body.accessToken as string;
  clock.advance(5 * 60 * 1000);
  const second = (await accessToken(member)).body.accessToken as string;
  expect(second).not.toBe(first);
  expect((await projects(first)).status).toBe(200);
  expect((await projects(second)).status).toBe(200);
  clock.advance(5 * 60 * 1000);
  const third = (await accessToken(member)).body.accessToken as string;
  expect((await projects(first)).status).toBe(401);
  expect((await projects(second)).status).toBe(200);
  expect((await projects(third)).status).toBe(200);

  const stored = async () =>
    (
      await inkstream.platform.readStore.find<{ id: string; memberId: string }>(ACCESS_TOKENS, {
        limit: 500,
      })
    ).items;
  const memberId = (await member.request('GET', '/me')).body.member.id;
  expect((await stored()).filter((token) => token.memberId === memberId)).toHaveLength(3);
  expect(await expireAccessTokens(inkstream.platform.readStore, clock.nowMs())).toBeGreaterThan(0);
  expect((await stored()).filter((token) => token.memberId === memberId)).toHaveLength(2);
});

test("one address is held at five times a session's limit, whoever it signs in as", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < PER_MINUTE * 5 + 1; i++)
    statuses.push(
      (
        await appSession(inkstream.url).request('GET', '/me', undefined, {
          'x-forwarded-for': '203.0.113.50',
        })
      ).status,
    );
  expect(statuses.slice(0, PER_MINUTE * 5).every((status) => status === 401)).toBe(true);
  expect(statuses.at(-1)).toBe(429);
  // Another address goes on.
  const other = await appSession(inkstream.url).request('GET', '/me', undefined, {
    'x-forwarded-for': '203.0.113.51',
  });
  expect(other.status).toBe(401);
});
