import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';
import { appSession, joinAndSignIn } from '../support/appSession.ts';

const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli.ts');
let inkstream: TestInkstream;
beforeAll(async () => {
  inkstream = await startInkstream();
}, 60_000);
afterAll(() => inkstream.close());

/** `npx inkstream …` against the running server's store, as an admin runs it beside the server. */
function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: {
        ...process.env,
        DATA_DIR: inkstream.dataDir,
        LOG_LEVEL: 'silent',
        INKSTREAM_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const linkIn = (text: string) =>
  /(http:\/\/\S+\/set-password#token=[A-Za-z0-9_-]{43})/.exec(text)?.[1];

test('members invite refuses an unknown account, an unknown role and a non-email, and prints no link', {
  timeout: 240_000,
}, async () => {
  for (const args of [
    ['--account', 'nobody-here', '--email', 'a@b.example'],
    ['--account', 'test', '--email', 'a@b.example', '--role', 'admin'],
    ['--account', 'test', '--email', 'not an email'],
  ]) {
    const result = await cli('members', 'invite', ...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /inkstream: (No account named nobody-here|Unknown role admin|--email must be an email address)/,
    );
    expect(linkIn(result.stdout)).toBeUndefined();
  }
});

test('members invite prints a link the invitee joins with; reset-password prints one that sets a new password', async () => {
  const invited = await cli(
    'members',
    'invite',
    '--account',
    'test',
    '--email',
    'new.editor@acme.example',
    '--role',
    'viewer',
  );
  expect(invited.code).toBe(0);
  const member = await joinAndSignIn(
    inkstream.url,
    linkIn(invited.stdout)!,
    'new.editor@acme.example',
  );
  expect((await member.request('GET', '/me')).body.member.role).toBe('viewer');

  const reset = await cli(
    'members',
    'reset-password',
    '--account',
    'test',
    '--email',
    'new.editor@acme.example',
  );
  expect(reset.code).toBe(0);
  await joinAndSignIn(
    inkstream.url,
    linkIn(reset.stdout)!,
    'new.editor@acme.example',
    'a-brand-new-passphrase-7',
  );
  expect(
    (
      await appSession(inkstream.url).request('POST', '/sign-in', {
        email: 'new.editor@acme.example',
        password: 'plum-orchard-lantern-42',
      })
    ).status,
  ).toBe(401);

  const elsewhere = await cli(
    'members',
    'reset-password',
    '--account',
    'default',
    '--email',
    'new.editor@acme.example',
  );
  expect(elsewhere.code).toBe(1);
  expect(elsewhere.stderr).toMatch(/No member with that email in account default/);
}, 240_000);
