import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.github.close();
});

const target = { owner: 'acme', repo: 'site', baseBranch: 'main' };

test('a token with write access validates and reports the default branch', async () => {
  await expect(h.port.validateAccess(target)).resolves.toEqual({
    defaultBranch: 'main',
    canPush: true,
  });
});

test('a protected base branch still validates, but direct push is not offered', async () => {
  h.github.repository('acme', 'site').protectedBranches.add('main');
  await expect(h.port.validateAccess(target)).resolves.toEqual({
    defaultBranch: 'main',
    canPush: false,
  });
});

test('an unknown token is reported as invalid, not retried', async () => {
  const port = h.connect({ type: 'token', token: 'ghp_revoked' });
  const error = await port.validateAccess(target).catch((e) => e);
  expect(error).toMatchObject({
    name: 'GitHubError',
    code: 'token_invalid',
    status: 401,
    retryable: false,
  });
  expect(error.reason).toMatch(/invalid, expired or revoked/);
  expect(h.github.calls('repos/get')).toHaveLength(1);
});

test('a repository the token cannot see is reported as not found or no access', async () => {
  const error = await h.port
    .validateAccess({ ...target, repo: 'private-elsewhere' })
    .catch((e) => e);
  expect(error).toMatchObject({ code: 'not_found', status: 404, retryable: false });
  expect(error.reason).toMatch(
    /acme\/private-elsewhere was not found, or the credential cannot see it/,
  );
});

test('a read-only token is refused with the permission to grant', async () => {
  h.github.addToken('ghp_reader', { login: 'viewer', repositories: { 'acme/site': 'read' } });
  const error = await h
    .connect({ type: 'token', token: 'ghp_reader' })
    .validateAccess(target)
    .catch((e) => e);
  expect(error).toMatchObject({ code: 'missing_permission', retryable: false });
  expect(error.reason).toMatch(/contents:write on acme\/site/);
});

test('a missing base branch is named, with the default branch as a hint', async () => {
  const error = await h.port
    .validateAccess({ ...target, baseBranch: 'production' })
    .catch((e) => e);
  expect(error).toMatchObject({ code: 'branch_missing', status: 404 });
  expect(error.reason).toBe(
    'the base branch "production" does not exist in acme/site (its default branch is "main").',
  );
});

test('GitHub Enterprise: the API under /api/v3 of another host works the same', async () => {
  const ghe = await startHarness({
    fake: { pathPrefix: '/api/v3', htmlBaseUrl: 'https://ghe.example.com' },
  });
  try {
    expect(ghe.github.baseUrl).toMatch(/\/api\/v3$/);
    await expect(ghe.port.validateAccess(target)).resolves.toEqual({
      defaultBranch: 'main',
      canPush: true,
    });
  } finally {
    await ghe.github.close();
  }
});

function appKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  };
}

test('a GitHub App buys an installation token from GitHub and acts with it', async () => {
  const keys = appKeys();
  h.github.addAppInstallation({
    appId: 1234,
    slug: 'inkstream',
    publicKey: keys.publicKey,
    installationId: 42,
    repositories: ['acme/site'],
    permissions: { contents: 'write', pull_requests: 'write', issues: 'write' },
  });
  const port = h.connect({
    type: 'app',
    appId: 1234,
    installationId: 42,
    privateKey: keys.privateKey,
  });

  await expect(port.validateAccess(target)).resolves.toEqual({
    defaultBranch: 'main',
    canPush: true,
  });
  const site = port.repository({ owner: 'acme', repo: 'site' });
  expect(await site.getBranchHead('main')).toMatch(/^[0-9a-f]{40}$/);

  expect(h.github.calls('apps/create-installation-access-token')).toHaveLength(1); // cached afterwards
  expect(h.github.calls('repos/get')[0].login).toBe('inkstream[bot]');
  expect(h.github.calls('git/get-ref')[0].login).toBe('inkstream[bot]');
});

test('a GitHub App installed without pull request write access is refused, naming it', async () => {
  const keys = appKeys();
  h.github.addAppInstallation({
    appId: 7,
    publicKey: keys.publicKey,
    installationId: 8,
    repositories: ['acme/site'],
    permissions: { contents: 'write', pull_requests: 'read' },
  });
  const error = await h
    .connect({ type: 'app', appId: 7, installationId: 8, privateKey: keys.privateKey })
    .validateAccess(target)
    .catch((e) => e);
  expect(error).toMatchObject({ code: 'missing_permission' });
  expect(error.reason).toMatch(/pull_requests:write/);
});

test('a GitHub App key that does not match is reported as an invalid credential', async () => {
  h.github.addAppInstallation({
    appId: 9,
    publicKey: appKeys().publicKey,
    installationId: 10,
    repositories: ['acme/site'],
    permissions: { contents: 'write', pull_requests: 'write' },
  });
  const error = await h
    .connect({ type: 'app', appId: 9, installationId: 10, privateKey: appKeys().privateKey })
    .validateAccess(target)
    .catch((e) => e);
  expect(error).toMatchObject({ code: 'token_invalid', status: 401, retryable: false });
  expect(error.message).toMatch(/^GitHub could not authenticate as the GitHub App installation/);
});

test('an installation id the GitHub App does not have is reported as a missing installation, not a missing repository', async () => {
  const keys = appKeys();
  h.github.addAppInstallation({
    appId: 11,
    publicKey: keys.publicKey,
    installationId: 12,
    repositories: ['acme/site'],
    permissions: { contents: 'write', pull_requests: 'write' },
  });
  const error = await h
    .connect({ type: 'app', appId: 11, installationId: 13, privateKey: keys.privateKey })
    .validateAccess(target)
    .catch((e) => e);
  expect(error).toMatchObject({ code: 'installation_missing', status: 404, retryable: false });
  expect(error.reason).toMatch(/installation was not found: check the installation id/);
  expect(h.github.calls('repos/get')).toHaveLength(0);
});

test('a GitHub App private key that is not a key is reported before any request', async () => {
  const error = await h
    .connect({ type: 'app', appId: 9, installationId: 10, privateKey: 'not a key' })
    .validateAccess(target)
    .catch((e) => e);
  expect(error).toMatchObject({ code: 'token_invalid', status: 0, retryable: false });
  expect(error.reason).toMatch(/private key could not be used/);
  expect(h.github.requests).toEqual([]);
});
