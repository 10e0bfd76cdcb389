import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { appSession, linkToken } from '../../support/appSession.ts';
import { firstStartProcesses } from '../../support/firstStartProcess.ts';

const { start, killAll } = firstStartProcesses();
afterEach(killAll);

test('the first start prints a one-time link: the owner sets a password, signs in, creates a key and uses it on /api/v1', async () => {
  const { url, printed } = await start(mkdtempSync(join(tmpdir(), 'ink-first-')));
  const link = /(http:\/\/localhost:\d+\/set-password#token=[A-Za-z0-9_-]+)/.exec(printed)?.[1];
  expect(link).toBeDefined();
  const token = linkToken(link!);
  const browser = appSession(url);

  // Hostile first: a made-up token, a common password, and no email are refused, and the link survives them.
  expect(
    (
      await browser.request('POST', '/set-password', {
        token: 'x'.repeat(43),
        password: 'plum-orchard-lantern-42',
        email: 'owner@acme.example',
      })
    ).status,
  ).toBe(404);
  const common = await browser.request('POST', '/set-password', {
    token,
    password: 'password123',
    email: 'owner@acme.example',
  });
  expect(common.status).toBe(400);
  expect(common.body.error.details).toEqual([
    { path: 'body.password', message: expect.stringContaining('most common') },
  ]);
  expect(
    (await browser.request('POST', '/set-password', { token, password: 'plum-orchard-lantern-42' }))
      .body.error.details[0].path,
  ).toBe('body.email');

  const set = await browser.request('POST', '/set-password', {
    token,
    password: 'plum-orchard-lantern-42',
    email: 'owner@acme.example',
    name: 'Olga Owner',
  });
  expect(set).toMatchObject({
    status: 200,
    body: { email: 'owner@acme.example', account: 'default' },
  });
  // The link works once.
  expect(
    (await browser.request('POST', '/set-password', { token, password: 'another-long-phrase-77' }))
      .status,
  ).toBe(404);

  const signedIn = await browser.request('POST', '/sign-in', {
    email: 'owner@acme.example',
    password: 'plum-orchard-lantern-42',
  });
  expect(signedIn.status).toBe(200);
  expect(signedIn.body.member).toMatchObject({
    email: 'owner@acme.example',
    name: 'Olga Owner',
    role: 'owner',
  });
  expect(signedIn.headers.get('set-cookie')).toMatch(
    /^inkstream_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/,
  );

  const created = await browser.request('POST', '/keys', { name: 'build server' });
  expect(created.status).toBe(201);
  const projects = await fetch(`${url}/api/v1/projects`, {
    headers: { authorization: `Bearer ${created.body.secret}` },
  });
  expect(projects.status).toBe(200);
  const keys = await browser.request('GET', '/keys');
  expect(
    keys.body.keys.find((key: { id: string }) => key.id === created.body.key.id),
  ).toMatchObject({
    name: 'build server',
    createdBy: 'Olga Owner',
    prefix: created.body.secret.slice(0, 10),
    revokedAt: null,
  });
}, 30_000);
