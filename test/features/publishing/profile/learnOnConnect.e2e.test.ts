import { afterAll, beforeAll, expect, test } from 'vitest';
import { integrationsStream } from '../../../../src/domain/integrations/decide.ts';
import { loadStream } from '../../../../src/eventstore/handleCommand.ts';
import { profileLearner } from '../../../../src/features/publishing/profile/profileLearner.ts';
import { eventually } from '../../../support/eventually.ts';
import { astroBlog } from '../../../fixtures/repos/astroBlog.ts';
import { articleIn, startWorld, type World } from '../world.ts';

/**
 * Learning wired in (issue 27): a new GitHub connection learns the repository's content profile in
 * the background; a push that changes the site's content config is learned again before the next
 * publish; a connection made before this change stays `legacy`, its learned profile waiting.
 */

let world: World;
beforeAll(async () => {
  world = await startWorld({ profiles: 'learn' });
  world.github.addRepository({ owner: 'acme', name: 'astro', files: astroBlog.files });
  world.github.addToken('ghp_astro', { login: 'inkbot', repositories: { 'acme/astro': 'write' } });
});
afterAll(async () => {
  expect(world.github.violations).toEqual([]);
  await world.close();
});

const connectAstro = (projectId: string) =>
  world.connect(projectId, {
    repository: 'acme/astro',
    contentDirectory: 'src/content/blog',
    credentials: { type: 'token', token: 'ghp_astro' },
  });

const profileOf = async (projectId: string) =>
  (await loadStream(world.app.platform.eventStore, integrationsStream, projectId)).state.github
    ?.contentProfile;

const treeOfMain = () => {
  const repo = world.github.repository('acme', 'astro');
  return repo.git.commits.get(repo.branches.get('main')!)!.treeSha;
};

test('connecting a repository learns its profile; a changed content config is learned again before the next publish', async () => {
  const projectId = await world.project();
  expect((await connectAstro(projectId)).status).toBe(200);
  const learned = await eventually(
    () => profileOf(projectId),
    (profile) => profile?.state === 'learned',
    { what: 'the content profile to be learned' },
  );
  expect(learned!.learnedFrom).toEqual({
    commit: world.github.repository('acme', 'astro').branches.get('main'),
    tree: treeOfMain(),
  });
  expect(learned!.learned).toMatchObject({
    toolchain: 'astro',
    collection: { directory: 'src/content/blog' },
    fileName: '{slug}.md',
    permalink: '/blog/{slug}/',
  });
  expect(learned!.learned!.fields.filter((f) => f.required).map((f) => f.name)).toEqual([
    'title',
    'description',
    'pubDate',
  ]);

  // The site adds a required field to its schema.
  world.github.pushCommit('acme', 'astro', 'main', {
    message: 'Require an author',
    files: {
      'src/content.config.ts': astroBlog.files['src/content.config.ts'].replace(
        'heroImage: image().optional(),',
        'heroImage: image().optional(),\n      author: z.string(),',
      ),
    },
  });
  const articleId = await world.draft(projectId);
  expect((await world.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  await articleIn(world.api, articleId, ['pr_open']);

  const relearned = await profileOf(projectId);
  expect(relearned!.learnedFrom!.tree).toBe(treeOfMain());
  expect(relearned!.learned!.fields.find((f) => f.name === 'author')).toMatchObject({
    required: true,
    source: { file: 'src/content.config.ts', line: 17 },
  });
  // Learned before the pull request was opened, by the publish job.
  const store = world.app.platform.eventStore;
  const learnedAt = (await store.readStream(`integrations-${projectId}`))
    .filter((e) => e.type === 'ContentProfileLearned')
    .map((e) => e.position);
  const openedAt = (await store.readStream(`article-${articleId}`)).find(
    (e) => e.type === 'ArticlePullRequestOpened',
  )!.position;
  expect(learnedAt).toHaveLength(2);
  expect(learnedAt[1]).toBeLessThan(openedAt);
  // …and the file is committed in the shape learned then: the new required field is in it.
  const opened = (await store.readStream(`article-${articleId}`)).find(
    (e) => e.type === 'ArticlePullRequestOpened',
  )!;
  const { branch, path } = opened.data as { branch: string; path: string };
  expect(path).toMatch(/^src\/content\/blog\//);
  const text = world.github.fileAt('acme', 'astro', branch, path)!.toString('utf8');
  expect(text).toMatch(/^author: /m);
}, 90_000);

test('a connection made before learning existed stays legacy, the learned profile waiting for a person', async () => {
  const store = world.app.platform.eventStore;
  const template = await world.project();
  await connectAstro(template);
  const [connected] = (await store.readStream(`integrations-${template}`)).filter(
    (e) => e.type === 'GitHubConnected',
  );
  const projectId = await world.project();
  const { learnsProfile, ...data } = connected.data as Record<string, unknown>;
  expect(learnsProfile).toBe(true);
  // The event as connections recorded it before: no learnsProfile.
  await store.append(
    `integrations-${projectId}`,
    [
      {
        id: crypto.randomUUID(),
        type: 'GitHubConnected',
        data: {
          ...data,
          projectId,
          sealedCredentials: world.app.platform.secrets.seal(
            JSON.stringify({ type: 'token', token: 'ghp_astro' }),
            { kind: 'github-credentials', accountId: String(data.accountId), recordId: projectId },
          ),
        },
        metadata: connected.metadata,
      },
    ],
    'no_stream',
  );
  const waiting = await eventually(
    () => profileOf(projectId),
    (profile) => !!profile?.learned,
    { what: 'the legacy connection to learn its profile' },
  );
  expect(waiting!.state).toBe('legacy');
  expect(waiting!.learned!.toolchain).toBe('astro');
}, 60_000);

test('GitHubConnected handled again (a kill -9 before the checkpoint) reads the stream first: one branch read, nothing recorded twice', async () => {
  const projectId = await world.project();
  await connectAstro(projectId);
  await eventually(
    () => profileOf(projectId),
    (profile) => profile?.state === 'learned',
    { what: 'the content profile to be learned' },
  );
  const store = world.app.platform.eventStore;
  const stream = async () => store.readStream(`integrations-${projectId}`);
  const connected = (await stream()).filter((e) => e.type === 'GitHubConnected');
  const before = world.github.requests.length;
  await profileLearner(world.app.platform).handleBatch(connected);
  expect(world.github.requests.slice(before).map((r) => r.operationId)).toEqual([
    'repos/get-branch',
  ]);
  expect((await stream()).filter((e) => e.type === 'ContentProfileLearned')).toHaveLength(1);
}, 60_000);
