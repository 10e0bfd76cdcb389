import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { startServer } from '../../../src/app/start.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { appSession } from '../../support/appSession.ts';
import { signedInMember } from '../../support/signedInMember.ts';

let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream();
});
afterAll(() => inkstream.close());

test('30 parallel password guesses on one email from one address: at most 10 are checked, the rest get 429 with Retry-After, and so does the right password afterwards', async () => {
  await signedInMember(inkstream, { email: 'target@acme.example', role: 'owner' });
  const guesses = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      appSession(inkstream.url).request('POST', '/sign-in', {
        email: 'target@acme.example',
        password: `guess-number-${i}-xyz`,
      }),
    ),
  );
  const statuses = guesses.map((guess) => guess.status);
  expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(20);
  expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  const refused = guesses.find((guess) => guess.status === 429)!;
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(refused.body.error.message).toMatch(
    /Too many sign-in attempts for this email address from your network address\. Try again in \d+ minutes?/,
  );

  const owner = await appSession(inkstream.url).request('POST', '/sign-in', {
    email: 'target@acme.example',
    password: 'plum-orchard-lantern-42',
  });
  expect(owner.status).toBe(429);
});

test('one address trying many emails is held at 50 attempts', async () => {
  const fresh = await startInkstream();
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 55; i++) {
      statuses.push(
        (
          await appSession(fresh.url).request('POST', '/sign-in', {
            email: `nobody-${i}@acme.example`,
            password: 'whatever-it-is-123',
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 50).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(50)).toEqual([429, 429, 429, 429, 429]);
  } finally {
    await fresh.close();
  }
}, 60_000);

test('two servers on one store share the counts: guesses spread over both are held at 10 per email and address', async () => {
  await signedInMember(inkstream, { email: 'shared@acme.example', role: 'editor' });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: inkstream.dataDir,
    LOG_LEVEL: 'silent',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  });
  const other = await startServer(config, createLogger('silent'), {});
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const server = i % 2 === 0 ? inkstream.url : other.url;
      statuses.push(
        (
          await appSession(server).request('POST', '/sign-in', {
            email: 'shared@acme.example',
            password: `wrong-guess-${i}-xyz`,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    expect(
      (
        await appSession(other.url).request('POST', '/sign-in', {
          email: 'shared@acme.example',
          password: 'plum-orchard-lantern-42',
        })
      ).status,
    ).toBe(429);
  } finally {
    await other.stop();
  }
});
