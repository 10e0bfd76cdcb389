import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { secretsStatus } from '../../src/cli/secrets.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { keyIdOf } from '../../src/core/secretBox.ts';
import type { CommandContext } from '../../src/eventstore/handleCommand.ts';
import { integrationsStream } from '../../src/domain/integrations/decide.ts';
import { searchAnalyticsStream } from '../../src/domain/searchAnalytics/decide.ts';
import type { Platform } from '../../src/platform.ts';
import { createPlatform } from '../../src/app/platform.ts';
import { webhookStream } from '../../src/domain/webhooks/decide.ts';

/** Before a retired key is dropped, the operator asks which stored secrets still need it. */
const oldKey = Buffer.alloc(32, 7);
const newKey = Buffer.alloc(32, 9);
// Sealed under oldKey by the version before bindings (v1).
const V1_UNDER_OLD_KEY =
  'v1.84_4N1IM63NpdDRT.ix34TzvSl01XD_i_MDE76Q.5wmIyZV9tMIfUqkKfzUX245pLtHyowEERw4';

const dataDir = mkdtempSync(join(tmpdir(), 'inkstream-secrets-status-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const open = (current: Buffer, retired: Buffer[] = []) =>
  createPlatform(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      INKSTREAM_SECRET_KEY: current.toString('base64'),
      INKSTREAM_SECRET_KEYS_RETIRED: retired.map((key) => key.toString('base64')).join(','),
    }),
    createLogger('silent'),
  );
async function headPosition(): Promise<bigint> {
  const platform = await open(newKey);
  try {
    return await platform.eventStore.headPosition();
  } finally {
    await platform.close();
  }
}
const context = (accountId: string, commandId: string): CommandContext => ({
  accountId,
  actor: { kind: 'cli', user: 'test' },
  correlationId: commandId,
  requestId: commandId,
  commandId,
});
const settings = {
  owner: 'acme',
  repo: 'site',
  baseBranch: 'main',
  contentDirectory: 'content',
  coverDirectory: 'public',
  publishMode: 'pr' as const,
  commentPermission: 'write' as const,
};

async function registerEndpoint(platform: Platform, accountId: string, endpointId: string) {
  const sealedSecret = platform.secrets.seal('whsec_x', {
    kind: 'webhook-endpoint-secret',
    accountId,
    recordId: endpointId,
  });
  await platform.commands.execute(
    webhookStream,
    endpointId,
    {
      type: 'RegisterEndpoint',
      endpointId,
      accountId,
      url: 'https://hooks.example.com/x',
      events: null,
      sealedSecret,
      at: platform.clock.now(),
    },
    context(accountId, `register:${endpointId}`),
  );
}

test('secrets status names each record still sealed under a retired key, unbound (v1), or not opening, and nothing else', async () => {
  const before = await open(oldKey);
  await registerEndpoint(before, 'acc_a', 'whk_old');
  await registerEndpoint(before, 'acc_a', 'whk_deleted');
  await before.commands.execute(
    webhookStream,
    'whk_deleted',
    { type: 'DeleteEndpoint', at: before.clock.now() },
    context('acc_a', 'delete'),
  );
  const sealedCredentials = before.secrets.seal('{"type":"token","token":"ghp_a"}', {
    kind: 'github-credentials',
    accountId: 'acc_a',
    recordId: 'prj_a',
  });
  await before.commands.execute(
    integrationsStream,
    'prj_a',
    {
      type: 'ConnectGitHub',
      projectId: 'prj_a',
      accountId: 'acc_a',
      settings,
      credentials: { type: 'token' },
      sealedCredentials,
      sealedWebhookSecret: before.secrets.seal('hook', {
        kind: 'github-webhook-secret',
        accountId: 'acc_a',
        recordId: 'prj_a',
      }),
      at: before.clock.now(),
    },
    context('acc_a', 'connect:a'),
  );
  await before.commands.execute(
    searchAnalyticsStream,
    'prj_v1',
    {
      type: 'ConnectSearchAnalytics',
      projectId: 'prj_v1',
      accountId: 'acc_b',
      connectionId: 'c1',
      syncId: 'run_1',
      property: 'sc-domain:b.example',
      urlPattern: 'https://b.example/{slug}',
      credentials: { type: 'oauth' },
      sealedCredentials: V1_UNDER_OLD_KEY,
      at: before.clock.now(),
    },
    context('acc_b', 'connect:v1'),
  );
  await before.close();

  const rotated = await open(newKey, [oldKey]);
  await registerEndpoint(rotated, 'acc_a', 'whk_new');
  // Project A's credentials copied into project B's record.
  await rotated.commands.execute(
    integrationsStream,
    'prj_b',
    {
      type: 'ConnectGitHub',
      projectId: 'prj_b',
      accountId: 'acc_b',
      settings,
      credentials: { type: 'token' },
      sealedCredentials,
      sealedWebhookSecret: rotated.secrets.seal('hook', {
        kind: 'github-webhook-secret',
        accountId: 'acc_b',
        recordId: 'prj_b',
      }),
      at: rotated.clock.now(),
    },
    context('acc_b', 'connect:b'),
  );
  const status = await secretsStatus(rotated);
  await rotated.close();

  expect(status.keys).toEqual({ current: keyIdOf(newKey), retired: [keyIdOf(oldKey)] });
  const byRecord = Object.fromEntries(
    status.secrets.map((secret) => [`${secret.kind}:${secret.recordId}`, secret.state]),
  );
  expect(byRecord).toEqual({
    'webhook-endpoint-secret:whk_old': 'retired_key',
    'webhook-endpoint-secret:whk_new': 'current',
    'github-credentials:prj_a': 'retired_key',
    'github-webhook-secret:prj_a': 'retired_key',
    'github-credentials:prj_b': 'does_not_open',
    'github-webhook-secret:prj_b': 'current',
    'search-credentials:prj_v1': 'unbound_v1',
  });
});

test('the CLI prints it, and reads only: with the retired key dropped, what needed it is reported as not opening', async () => {
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(import.meta.dirname, '..', '..', 'src', 'cli.ts'), ...args],
        {
          env: {
            ...process.env,
            DATA_DIR: dataDir,
            LOG_LEVEL: 'silent',
            INKSTREAM_SECRET_KEY: newKey.toString('base64'),
            INKSTREAM_SECRET_KEYS_RETIRED: '',
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let stdout = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.on('close', (code) => resolve({ code, stdout }));
    });
  const headBefore = await headPosition();
  const text = await run(['secrets', 'status']);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain(`Keys: current ${keyIdOf(newKey)}\n`);
  expect(text.stdout).toContain('Stored secrets: 7, of which 5 need saving again.');
  expect(text.stdout).toContain(
    `webhook-endpoint-secret of whk_old (account acc_a), key ${keyIdOf(oldKey)}: does not open`,
  );
  expect(text.stdout).not.toContain('whk_new');
  const json = JSON.parse((await run(['secrets', 'status', '--json'])).stdout);
  expect(
    json.secrets.filter((secret: { state: string }) => secret.state === 'does_not_open'),
  ).toHaveLength(5);
  expect(await headPosition()).toBe(headBefore);
});
