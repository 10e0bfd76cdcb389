import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { generateApiKey } from '../../src/domain/accounts/apiKey.ts';
import {
  createApiKey,
  revokeApiKey,
  rotateApiKey,
  setAccountPlan,
} from '../../src/features/accounts/keys.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream();
});
afterAll(async () => {
  await app.close();
});

async function statusWith(
  authorization: string | undefined,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${app.url}/api/v1/projects`, {
    headers: authorization === undefined ? {} : { authorization },
  });
  return { status: response.status, body: await response.json() };
}

test.each([
  ['missing', undefined, 'Send your API key'],
  ['not Bearer', 'Basic dXNlcjpwYXNz', 'must be "Bearer <key>"'],
  ['empty Bearer', 'Bearer ', 'must be "Bearer <key>"'],
  ['not an Inkstream key', 'Bearer sk-123', 'not an Inkstream API key'],
  ['a bad checksum', `Bearer ${generateApiKey().slice(0, -1)}0`, 'not an Inkstream API key'],
  ['unknown', `Bearer ${generateApiKey()}`, 'Unknown or revoked API key'],
])('a %s key gets 401 with the error shape', async (_label, authorization, message) => {
  const { status, body } = await statusWith(authorization);
  expect(status).toBe(401);
  expect(body.error).toMatchObject({
    code: 'unauthorized',
    message: expect.stringContaining(message),
  });
});

test('a revoked key gets 401 from the next request on, with the very answer an unknown key gets', async () => {
  const issued = await createApiKey(app.platform, { account: 'revoking' });
  expect((await statusWith(`Bearer ${issued.key}`)).status).toBe(200);
  await revokeApiKey(app.platform, issued.id);
  const revoked = await statusWith(`Bearer ${issued.key}`);
  const unknown = await statusWith(`Bearer ${generateApiKey()}`);
  expect(revoked.status).toBe(401);
  // Nothing tells a holder of a leaked key that it was once real: only the request id differs.
  const withoutRequestId = ({
    error: { requestId: _id, ...rest },
  }: {
    error: { requestId: string };
  }) => rest;
  expect(withoutRequestId(revoked.body)).toEqual(withoutRequestId(unknown.body));
});

test('rotation: the old key gets 401 at once and the new key works on the same account', async () => {
  const issued = await createApiKey(app.platform, { account: 'rotating' });
  const created = await app
    .api(issued.key)
    .post('/projects', { name: 'Kept', websiteUrl: 'https://kept.example' });
  const rotated = await rotateApiKey(app.platform, issued.id);
  expect((await statusWith(`Bearer ${issued.key}`)).status).toBe(401);
  const listed = await app.api(rotated.key).get('/projects');
  expect(listed.status).toBe(200);
  expect(listed.body.projects.map((p: { id: string }) => p.id)).toEqual([created.body.project.id]);
});

test('rotation with the real CLI in another process takes effect on the running server immediately', async () => {
  const issued = await createApiKey(app.platform, { account: 'cli-rotating' });
  expect((await statusWith(`Bearer ${issued.key}`)).status).toBe(200);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['bin/inkstream.js', 'keys', 'rotate', issued.id, '--json'],
    {
      cwd: process.cwd(),
      env: {
        ...process.env,
        DATA_DIR: app.dataDir,
        INKSTREAM_SECRET_KEY: SECRET_KEY,
        LOG_LEVEL: 'silent',
      },
    },
  );
  const replacement = JSON.parse(stdout.trim().split('\n').at(-1)!);
  expect(replacement).toMatchObject({
    id: expect.stringMatching(/^key_/),
    key: expect.stringMatching(/^ink_/),
    account: 'cli-rotating',
  });
  expect((await statusWith(`Bearer ${issued.key}`)).status).toBe(401);
  expect((await statusWith(`Bearer ${replacement.key}`)).status).toBe(200);
}, 30_000);

test("one account's key never reaches another account's data", async () => {
  const first = await app.newKey('first');
  const second = await app.newKey('second');
  await app.api(first).post('/projects', { name: 'Mine', websiteUrl: 'https://mine.example' });
  expect((await app.api(second).get('/projects')).body.projects).toEqual([]);
});

test('a plan change applies from the next request, though the key was remembered', async () => {
  const issued = await createApiKey(app.platform, { account: 'upgrading', plan: 'free' });
  const client = app.api(issued.key);
  expect(
    (await client.post('/projects', { name: 'One', websiteUrl: 'https://one.example' })).status,
  ).toBe(201);
  expect(
    (await client.post('/projects', { name: 'Two', websiteUrl: 'https://two.example' })).status,
  ).toBe(402);
  await setAccountPlan(app.platform, 'upgrading', 'pro');
  expect(
    (await client.post('/projects', { name: 'Two', websiteUrl: 'https://two.example' })).status,
  ).toBe(201);
});
