import { request } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { signedInMember } from '../../support/signedInMember.ts';

const PUBLIC_URL = 'https://ink.acme.example';
let plain: TestInkstream;
let published: TestInkstream;
beforeAll(async () => {
  [plain, published] = await Promise.all([
    startInkstream(),
    startInkstream({ env: { INKSTREAM_PUBLIC_URL: PUBLIC_URL } }),
  ]);
}, 60_000);
afterAll(() => Promise.all([plain?.close(), published?.close()]));

/** One request over node:http, which sends the Host header it is given (fetch does not). */
function send(
  app: TestInkstream,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${app.url}${path}`, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

test("a session cookie planted beside the member's (another service on the host, another port) signs nobody in", async () => {
  const member = await signedInMember(plain, { email: 'planted@acme.example', role: 'owner' });
  await plain.newKey('planter');
  const planter = await signedInMember(plain, {
    account: 'planter',
    email: 'evil@planter.example',
    role: 'owner',
  });
  const mine = member.cookie!;
  const theirs = planter.cookie!;
  expect(
    JSON.parse((await send(plain, 'GET', '/app/api/me', { cookie: mine })).text).member.email,
  ).toBe('planted@acme.example');
  for (const cookie of [`${theirs}; ${mine}`, `${mine}; ${theirs}`]) {
    const answer = await send(plain, 'GET', '/app/api/me', { cookie });
    expect(answer.status).toBe(401);
    expect(answer.text).not.toMatch(/evil@planter|planted@acme/);
  }
  // Nor can it get an access token for /api/v1.
  const token = await send(plain, 'POST', '/app/api/access-token', {
    cookie: `${theirs}; ${mine}`,
    'x-csrf-token': member.csrfToken!,
  });
  expect(token.status).toBe(401);
});

test('with INKSTREAM_PUBLIC_URL set, a rebinding Host gets neither the web app nor /app/api; /api/v1 and health checks answer any Host', async () => {
  const page = await send(published, 'GET', '/sign-in', { host: 'attacker.example:8080' });
  expect(page.status).toBe(403);
  expect(page.text).toMatch(/answers only at https:\/\/ink\.acme\.example/);
  expect(page.text).not.toMatch(/<script/);
  const signIn = await send(
    published,
    'POST',
    '/app/api/sign-in',
    {
      host: 'attacker.example:8080',
      origin: 'http://attacker.example:8080',
      'content-type': 'application/json',
    },
    JSON.stringify({ email: 'someone@acme.example', password: 'whatever-it-is-1' }),
  );
  expect(signIn.status).toBe(403);
  // The public name is served.
  expect((await send(published, 'GET', '/sign-in', { host: 'ink.acme.example' })).status).toBe(200);
  // Container probes and API clients by any name.
  expect((await send(published, 'GET', '/healthz', { host: 'localhost' })).status).toBe(200);
  expect((await send(published, 'GET', '/readyz', { host: 'localhost' })).status).toBe(200);
  const api = await send(published, 'GET', '/api/v1/projects', {
    host: 'localhost',
    authorization: `Bearer ${published.key}`,
  });
  expect(api.status).toBe(200);
});
