import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startWorld, type World } from './world.ts';

let w: World;
let projectId: string;

beforeAll(async () => {
  w = await startWorld();
  projectId = await w.project();
});
afterAll(() => w.close());

async function allEventsText(): Promise<string> {
  const events = await w.app.platform.eventStore.readAll({ maxCount: 100_000 });
  return JSON.stringify(events, (_key, value) =>
    typeof value === 'bigint' ? String(value) : value,
  );
}

test('GitHub refusals on save answer 400 naming the field to fix, and save nothing', async () => {
  const badToken = await w.connect(projectId, {
    credentials: { type: 'token', token: 'ghp_revoked' },
  });
  expect(badToken.status).toBe(400);
  expect(badToken.body.error.code).toBe('validation_failed');
  expect(badToken.body.error.message).toMatch(
    /GitHub refused access to acme\/site: GitHub rejected the credential \(401/,
  );
  expect(badToken.body.error.details).toEqual([
    expect.objectContaining({ path: 'body.credentials' }),
  ]);

  const readOnly = await w.connect(projectId, {
    credentials: { type: 'token', token: 'ghp_reader' },
  });
  expect(readOnly.status).toBe(400);
  expect(readOnly.body.error.message).toMatch(/can read but not write.*contents:write/);

  const noBranch = await w.connect(projectId, { baseBranch: 'production' });
  expect(noBranch.status).toBe(400);
  expect(noBranch.body.error.details[0].path).toBe('body.baseBranch');
  expect(noBranch.body.error.message).toContain('its default branch is "main"');

  const noRepo = await w.connect(projectId, { repository: 'acme/missing' });
  expect(noRepo.status).toBe(400);
  expect(noRepo.body.error.details[0].path).toBe('body.repository');

  const malformed = await w.connect(projectId, {
    repository: 'not a repo',
    contentDirectory: '../etc',
  });
  expect(malformed.status).toBe(400);
  expect(malformed.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
    'body.contentDirectory',
    'body.repository',
  ]);

  expect((await w.api.get(`/projects/${projectId}/integrations/github`)).status).toBe(404);
  expect(await allEventsText()).not.toContain('ghp_revoked');
});

test('a connection is saved sealed, shows only the kind of credential, and hands out the webhook secret once', async () => {
  const saved = await w.connect(projectId);
  expect(saved.status).toBe(200);
  const github = saved.body.github;
  expect(github).toMatchObject({
    repository: 'acme/site',
    baseBranch: 'main',
    contentDirectory: 'content/blog',
    coverDirectory: 'public/images/covers',
    publishMode: 'pr',
    credentials: { type: 'token' },
    webhook: {
      url: `${w.app.url}/api/v1/integrations/github/events`,
      contentType: 'application/json',
      events: [
        'pull_request',
        'issue_comment',
        'pull_request_review_comment',
        'check_run',
        'check_suite',
        'status',
        'deployment_status',
      ],
    },
  });
  expect(github.webhook.secret).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.stringify(saved.body)).not.toContain('ghp_writer');

  const read = await w.api.get(`/projects/${projectId}/integrations/github`);
  expect(read.status).toBe(200);
  expect(read.body.github.webhook.secret).toBeUndefined();
  expect(read.body.github.webhook.secretIssuedAt).toBe(github.webhook.secretIssuedAt);
  expect(JSON.stringify(read.body)).not.toContain('ghp_writer');

  const project = await w.api.get(`/projects/${projectId}`);
  expect(project.body.project.integrations).toEqual({
    github: { repository: 'acme/site', publishMode: 'pr', credentials: 'token' },
    postPublishHook: null,
    searchAnalytics: null,
  });

  // Saving again keeps the secret GitHub already has; rotating issues a new one.
  const again = await w.connect(projectId, { contentDirectory: 'src/content/posts/' });
  expect(again.body.github.contentDirectory).toBe('src/content/posts');
  expect(again.body.github.webhook.secret).toBeUndefined();
  const rotated = await w.connect(projectId, { rotateWebhookSecret: true });
  expect(rotated.body.github.webhook.secret).toMatch(/^[0-9a-f]{64}$/);
  expect(rotated.body.github.webhook.secret).not.toBe(github.webhook.secret);

  const log = await allEventsText();
  for (const secret of ['ghp_writer', github.webhook.secret, rotated.body.github.webhook.secret])
    expect(log).not.toContain(secret);
});

test('direct pushes need the plan feature (402) and an unprotected base branch (400)', async () => {
  const freeKey = await w.app.newKey('free-account', 'free');
  const free = w.app.api(freeKey);
  const freeProject = await w.project(free);
  const refused = await w.connect(freeProject, { publishMode: 'direct' }, free);
  expect(refused.status).toBe(402);
  expect(refused.body.error.message).toContain('direct push publishing');
  expect((await w.connect(freeProject, {}, free)).status).toBe(200); // pull requests are for every plan

  const protectedBase = await w.connect(projectId, {
    repository: 'acme/locked',
    publishMode: 'direct',
  });
  expect(protectedBase.status).toBe(400);
  expect(protectedBase.body.error.message).toContain('is protected');
  expect((await w.connect(projectId, { publishMode: 'direct' })).body.github.publishMode).toBe(
    'direct',
  );
});

test('a GitHub App installation can be the credential; its ids are shown, its key never', async () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  w.github.addAppInstallation({
    appId: 4321,
    slug: 'inkstream',
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    installationId: 77,
    repositories: ['acme/site'],
    permissions: { contents: 'write', pull_requests: 'write', issues: 'write' },
  });
  const saved = await w.connect(projectId, {
    credentials: { type: 'app', appId: 4321, installationId: 77, privateKey: privatePem },
  });
  expect(saved.status).toBe(200);
  expect(saved.body.github.credentials).toEqual({ type: 'app', appId: '4321', installationId: 77 });
  expect(JSON.stringify(saved.body)).not.toContain('PRIVATE KEY');
  expect(await allEventsText()).not.toContain(privatePem.split('\n')[1]);
  expect(
    (await w.api.get(`/projects/${projectId}`)).body.project.integrations.github.credentials,
  ).toBe('app');
});

test('another account cannot see or change a connection; DELETE disconnects', async () => {
  const other = w.app.api(await w.app.newKey('someone-else'));
  expect((await other.get(`/projects/${projectId}/integrations/github`)).status).toBe(404);
  expect((await w.connect(projectId, {}, other)).status).toBe(404);
  expect((await other.delete(`/projects/${projectId}/integrations/github`)).status).toBe(404);

  expect((await w.api.delete(`/projects/${projectId}/integrations/github`)).status).toBe(204);
  expect((await w.api.get(`/projects/${projectId}/integrations/github`)).status).toBe(404);
  expect((await w.api.delete(`/projects/${projectId}/integrations/github`)).status).toBe(404);
  expect((await w.api.get(`/projects/${projectId}`)).body.project.integrations.github).toBeNull();
  // A new connection after a disconnect gets a new secret.
  expect((await w.connect(projectId)).body.github.webhook.secret).toMatch(/^[0-9a-f]{64}$/);
});

test('the post-publish hook: URL checked, secret shown once, listed on the project, removable', async () => {
  const bad = await w.api.put(`/projects/${projectId}/integrations/post-publish-hook`, {
    url: 'ftp://example.com/hook',
  });
  expect(bad.status).toBe(400);
  expect((await w.api.get(`/projects/${projectId}/integrations/post-publish-hook`)).status).toBe(
    404,
  );

  const set = await w.api.put(`/projects/${projectId}/integrations/post-publish-hook`, {
    url: 'https://example.com/rebuild',
  });
  expect(set.status).toBe(200);
  expect(set.body.postPublishHook).toMatchObject({
    url: 'https://example.com/rebuild',
    lastDelivery: null,
  });
  expect(set.body.postPublishHook.secret).toMatch(/^whsec_/);
  const read = await w.api.get(`/projects/${projectId}/integrations/post-publish-hook`);
  expect(read.body.postPublishHook.secret).toBeUndefined();
  expect(
    (await w.api.get(`/projects/${projectId}`)).body.project.integrations.postPublishHook,
  ).toEqual({ url: 'https://example.com/rebuild' });
  expect(await allEventsText()).not.toContain(set.body.postPublishHook.secret);

  expect((await w.api.delete(`/projects/${projectId}/integrations/post-publish-hook`)).status).toBe(
    204,
  );
  expect((await w.api.get(`/projects/${projectId}/integrations/post-publish-hook`)).status).toBe(
    404,
  );
  expect(
    (await w.api.get(`/projects/${projectId}`)).body.project.integrations.postPublishHook,
  ).toBeNull();
});

test('the integration endpoints are in the index', async () => {
  const index = await w.api.get('');
  expect(Object.keys(index.body.paths)).toEqual(
    expect.arrayContaining([
      '/projects/{id}/integrations/github',
      '/projects/{id}/integrations/post-publish-hook',
      '/integrations/github/events',
    ]),
  );
  expect(index.body.paths['/integrations/github/events'].post.security).toEqual([]);
});
