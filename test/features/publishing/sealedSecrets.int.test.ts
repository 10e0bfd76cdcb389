import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadStream } from '../../../src/eventstore/handleCommand.ts';
import type { GitHubConnection } from '../../../src/domain/integrations/integrations.ts';
import { integrationsStream } from '../../../src/domain/integrations/decide.ts';
import type { ApiClient } from '../../support/inkstream.ts';
import { articleIn, startWorld, type World } from './world.ts';

/**
 * Someone who can write to the store (a restored backup, a bug, an operator's mistake) copies a
 * sealed value from one project's record into another's. Bound to its record, it does not open
 * there: the other project is never served with the first project's credential or secret.
 */
let w: World;
let projectA: string;
let secretA: string;
let clientB: ApiClient;
let projectB: string;

beforeAll(async () => {
  w = await startWorld();
  w.github.addToken('ghp_b', { login: 'b-bot', repositories: { 'acme/locked': 'write' } });
  projectA = await w.project();
  secretA = (await w.connect(projectA)).body.github.webhook.secret;
  clientB = w.app.api(await w.app.newKey('b'));
  projectB = await w.project(clientB);
  const connectedB = await w.connect(
    projectB,
    { repository: 'acme/locked', credentials: { type: 'token', token: 'ghp_b' } },
    clientB,
  );
  expect(connectedB.status).toBe(200);
});
afterAll(() => w.close());

const connectionOf = async (projectId: string) => {
  const { state } = await loadStream(w.app.platform.eventStore, integrationsStream, projectId);
  return { accountId: state.accountId!, github: state.github! };
};

/** Writes project B's connection again, with one sealed field taken from project A's record. */
async function moveIntoB(field: 'sealedCredentials' | 'sealedWebhookSecret'): Promise<void> {
  const a = await connectionOf(projectA);
  const b = await connectionOf(projectB);
  const {
    owner,
    repo,
    baseBranch,
    contentDirectory,
    coverDirectory,
    publishMode,
    commentPermission,
  }: GitHubConnection = b.github;
  const moved = {
    sealedCredentials: b.github.sealedCredentials,
    sealedWebhookSecret: b.github.sealedWebhookSecret,
    [field]: a.github[field],
  };
  await w.app.platform.commands.execute(
    integrationsStream,
    projectB,
    {
      type: 'ConnectGitHub',
      projectId: projectB,
      accountId: b.accountId,
      credentials: b.github.credentials,
      settings: {
        owner,
        repo,
        baseBranch,
        contentDirectory,
        coverDirectory,
        publishMode,
        commentPermission,
      },
      ...moved,
      at: w.app.platform.clock.now(),
    },
    {
      accountId: b.accountId,
      actor: { kind: 'system', worker: 'test-tamper' },
      correlationId: field,
      requestId: field,
      commandId: `tamper:${field}`,
    },
  );
}

test("project A's webhook secret copied into project B's record does not sign deliveries for B's repository: 401, never 500", async () => {
  await moveIntoB('sealedWebhookSecret');
  const repository = w.github.repositoryJson('acme', 'locked');
  const ping = { zen: 'Design for failure.', hook_id: 2, repository, sender: repository.owner };
  const signedWithA = await w.deliver(await w.sign('ping', ping, secretA));
  expect(signedWithA.status).toBe(401);
  expect(signedWithA.body.error.code).toBe('unauthorized');

  const siteRepository = w.github.repositoryJson('acme', 'site');
  const stillA = await w.deliver(
    await w.sign(
      'ping',
      { ...ping, repository: siteRepository, sender: siteRepository.owner },
      secretA,
    ),
  );
  expect(stillA).toMatchObject({ status: 202, body: { status: 'accepted' } });
});

test("project A's GitHub token copied into project B's record is never used for B: the article fails saying the stored credentials do not open", async () => {
  await moveIntoB('sealedCredentials');
  const articleId = await w.draft(projectB, 'Why sourdough needs time', clientB);
  expect((await clientB.post(`/articles/${articleId}/approve`)).status).toBe(202);
  const failed = await articleIn(clientB, articleId, ['failed']);
  expect(failed.failure.reason).toMatch(/credentials.*do not open|does not open/);
  expect(
    w.github.requests.filter(
      (request) => request.path.includes('/acme/locked') && request.login === 'inkbot',
    ),
  ).toEqual([]);
  expect(w.github.repository('acme', 'locked').pulls.size).toBe(0);

  const aboutB = await clientB.get(`/projects/${projectB}/integrations/github`);
  expect(aboutB.status).toBe(200);
});
