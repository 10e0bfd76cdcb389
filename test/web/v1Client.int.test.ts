import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { manualClock } from '../../src/core/clock.ts';
import { inviteByName } from '../../src/features/application/index.ts';
import { app, whenSignedOut } from '../../web/src/api/appClient.ts';
import { accessTokens, v1Client } from '../../web/src/api/v1Client.ts';
import { appSession, linkToken } from '../support/appSession.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { OPERATOR } from '../support/operator.ts';
import { pageFetch } from '../support/pageFetch.ts';
import { signedInMember } from '../support/signedInMember.ts';

// The web app's own /api/v1 client (web/src/api/v1Client.ts) and /app/api client, run against a
// real server whose clock the page shares: both move only when the test moves them.
const MINUTE = 60_000;
const PASSWORD = 'plum-orchard-lantern-42';
const clock = manualClock(new Date().toISOString());
let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream({ clock });
}, 60_000);
afterAll(async () => {
  whenSignedOut(() => undefined);
  await inkstream?.close();
});

type Page = ReturnType<typeof pageFetch>;

/** Runs the page's code with the page's fetch (the app's clients call the global one). */
async function asPage<T>(page: Page, work: () => Promise<T>): Promise<T> {
  vi.stubGlobal('fetch', page.fetch);
  try {
    return await work();
  } finally {
    vi.unstubAllGlobals();
  }
}

/** A new member joins through their link and signs in on a page, which then builds its /api/v1 client. */
async function signedInPage(email: string) {
  const { link } = await inviteByName(inkstream.platform, {
    account: 'test',
    email,
    role: 'editor',
    actor: OPERATOR,
  });
  const page = pageFetch(inkstream.url);
  return asPage(page, async () => {
    await app.setPassword({ token: linkToken(link.url), password: PASSWORD });
    const me = await app.signIn(email, PASSWORD);
    const client = v1Client(
      `${inkstream.url}/api/v1`,
      accessTokens(
        () => app.accessToken(),
        () => clock.nowMs(),
      ),
    );
    const projects = () => asPage(page, () => client.GET('/projects'));
    page.sent.length = 0; // from here on, what the page's /api/v1 work sends
    return { page, client, projects, memberId: me.member.id };
  });
}

/** What the page sent since `from`, one line per request. */
const sentSince = (page: Page, from: number) =>
  page.sent.slice(from).map(({ method, path, status }) => `${method} ${path} ${status}`);

test("a session revoked from another device: the page's next request is refused, it asks for a token once, and is sent to sign in", async () => {
  const { page, projects } = await signedInPage('revoked@acme.example');
  expect((await projects()).response.status).toBe(200);
  const phone = appSession(inkstream.url);
  expect(
    (await phone.request('POST', '/sign-in', { email: 'revoked@acme.example', password: PASSWORD }))
      .status,
  ).toBe(200);
  const other = (await phone.request('GET', '/sessions')).body.sessions.find(
    (session: { current: boolean }) => !session.current,
  );
  expect((await phone.request('DELETE', `/sessions/${other.id}`)).status).toBe(204);

  let sentToSignIn = 0;
  whenSignedOut(() => {
    sentToSignIn++;
  });
  const from = page.sent.length;
  const refused = await projects();
  expect(refused.response.status).toBe(401);
  expect(refused.error).toMatchObject({ error: { code: 'unauthorized' } });
  expect(sentToSignIn).toBe(1);
  expect(sentSince(page, from)).toEqual([
    'GET /api/v1/projects 401',
    'POST /app/api/access-token 401',
  ]);
});

test('past the renewal point (a minute before expiry) a request fetches a new token before it is sent, so none is refused for an expired token', async () => {
  const { page, projects } = await signedInPage('renewing@acme.example');
  // A session's token changes every five minutes and lives until the end of the next five: asked
  // at the start of a window, it lives the full ten minutes.
  clock.advance(5 * MINUTE - (clock.nowMs() % (5 * MINUTE)));
  expect((await projects()).response.status).toBe(200);
  expect(sentSince(page, 0)).toEqual([
    'POST /app/api/access-token 200',
    'GET /api/v1/projects 200',
  ]);
  const first = page.sent[1].bearer!;

  clock.advance(9 * MINUTE - 1); // 1 ms before the renewal point: the token is still used
  expect((await projects()).response.status).toBe(200);
  expect(sentSince(page, 2)).toEqual(['GET /api/v1/projects 200']);
  expect(page.sent[2].bearer).toBe(first);

  clock.advance(2); // 1 ms past it: a new token first, then the request with it
  expect((await projects()).response.status).toBe(200);
  expect(sentSince(page, 3)).toEqual([
    'POST /app/api/access-token 200',
    'GET /api/v1/projects 200',
  ]);
  const renewed = page.sent[4].bearer!;
  expect(renewed).not.toBe(first);

  clock.advance(MINUTE); // the first token has now expired on the server, and the page never sends it
  const expired = await fetch(`${inkstream.url}/api/v1/projects`, {
    headers: { authorization: `Bearer ${first}` },
  });
  expect(expired.status).toBe(401);
  expect((await projects()).response.status).toBe(200);
  expect(sentSince(page, 5)).toEqual(['GET /api/v1/projects 200']);
  expect(page.sent[5].bearer).toBe(renewed);
  expect(
    page.sent.filter((sent) => sent.path.startsWith('/api/v1/') && sent.status === 401),
  ).toEqual([]);
});

test('a token the server ended early (a role change) costs no error: the request is sent again with a new token, a POST once', async () => {
  const { page, client, projects, memberId } = await signedInPage('promoted@acme.example');
  const owner = await signedInMember(inkstream, {
    email: 'role-owner@acme.example',
    role: 'owner',
  });
  expect((await projects()).response.status).toBe(200);

  expect((await owner.request('PATCH', `/members/${memberId}`, { role: 'viewer' })).status).toBe(
    200,
  );
  let from = page.sent.length;
  expect((await projects()).response.status).toBe(200);
  expect(sentSince(page, from)).toEqual([
    'GET /api/v1/projects 401',
    'POST /app/api/access-token 200',
    'GET /api/v1/projects 200',
  ]);

  expect((await owner.request('PATCH', `/members/${memberId}`, { role: 'editor' })).status).toBe(
    200,
  );
  from = page.sent.length;
  const created = await asPage(page, () =>
    client.POST('/projects', {
      body: { name: 'Sent twice, made once', websiteUrl: 'http://127.0.0.1:9/' },
    }),
  );
  expect(created.response.status).toBe(201);
  expect(sentSince(page, from)).toEqual([
    'POST /api/v1/projects 401',
    'POST /app/api/access-token 200',
    'POST /api/v1/projects 201',
  ]);
  const listed = (await inkstream.api().get('/projects')).body.projects.filter(
    (project: { name: string }) => project.name === 'Sent twice, made once',
  );
  expect(listed).toHaveLength(1);
});
