import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession, type AppSession } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';

const PER_MINUTE = 5;
let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream({
    env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) },
  });
});
afterAll(() => inkstream.close());

const projects = (bearer: string) =>
  fetch(`${inkstream.url}/api/v1/projects`, { headers: { authorization: `Bearer ${bearer}` } });
const accessTokenOf = async (session: AppSession): Promise<string> =>
  (await session.request('POST', '/access-token')).body.accessToken;

test("a member's sessions share one rate limit: over it both get 429 with Retry-After, while another member and an API key of the account go on", async () => {
  const laptop = await signedInMember(inkstream, {
    email: 'busy-member@acme.example',
    role: 'editor',
  });
  const phone = appSession(inkstream.url);
  expect(
    (
      await phone.request('POST', '/sign-in', {
        email: 'busy-member@acme.example',
        password: 'plum-orchard-lantern-42',
      })
    ).status,
  ).toBe(200);
  const laptopToken = await accessTokenOf(laptop);
  const phoneToken = await accessTokenOf(phone);
  expect(phoneToken).not.toBe(laptopToken);

  for (let i = 0; i < 3; i++) expect((await projects(laptopToken)).status).toBe(200);
  // The phone's first request finds the laptop's three already counted.
  const phoneFirst = await projects(phoneToken);
  expect(phoneFirst.status).toBe(200);
  expect(phoneFirst.headers.get('ratelimit-remaining')).toBe('1');
  expect((await projects(phoneToken)).status).toBe(200);

  for (const token of [phoneToken, laptopToken]) {
    const limited = await projects(token);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({
      error: {
        code: 'rate_limited',
        message: expect.stringMatching(/5 requests per minute.*this member/),
      },
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  }
  // A fresh token of a limited member is no way around the limit: it counts against the member.
  expect((await projects(await accessTokenOf(laptop))).status).toBe(429);

  const colleague = await signedInMember(inkstream, {
    email: 'quiet-member@acme.example',
    role: 'editor',
  });
  const colleagues = await projects(await accessTokenOf(colleague));
  expect(colleagues.status).toBe(200);
  expect(colleagues.headers.get('ratelimit-remaining')).toBe(String(PER_MINUTE - 1));
  const keys = await projects(inkstream.key);
  expect(keys.status).toBe(200);
  expect(keys.headers.get('ratelimit-remaining')).toBe(String(PER_MINUTE - 1));
  expect(((await keys.json()) as { error?: unknown }).error).toBeUndefined();
});
