import { afterAll, beforeAll, expect, test } from 'vitest';
import { streamName } from '../../../src/eventstore/port.ts';
import {
  astroBlogProfile,
  reconnectAs,
  recordProfile,
  stopProfileLearner,
} from '../../support/contentProfile.ts';
import { signedInMember } from '../../support/signedInMember.ts';
import { startWorld, type World } from './world.ts';

/**
 * The content profile on the GitHub connection, as a person or an API client sees and corrects
 * it: GET shows it flattened with the overrides applied, PATCH corrects it without the
 * credential (and refuses anything that would write outside the repository's folders or break
 * the frontmatter), accept turns a legacy connection's learned profile on.
 */
let w: World;

beforeAll(async () => {
  w = await startWorld();
  await stopProfileLearner(w.app);
});
afterAll(() => w.close());

const path = (projectId: string) => `/projects/${projectId}/integrations/github`;

/** A project connected before profiles were learned (legacy) unless `kind` says otherwise. */
async function connectedProject(kind: 'legacy' | 'learning' = 'legacy'): Promise<string> {
  const projectId = await w.project();
  expect((await w.connect(projectId)).status).toBe(200);
  await reconnectAs(w.app.platform, projectId, kind);
  return projectId;
}

async function integrationEvents(projectId: string) {
  return w.app.platform.eventStore.readStream(streamName('integrations', projectId));
}

test('bad overrides answer 400 naming the field, and change nothing', {
  timeout: 90_000,
}, async () => {
  const projectId = await connectedProject();
  await recordProfile(w.app.platform, projectId, astroBlogProfile());
  expect((await w.api.post(`${path(projectId)}/profile/accept`)).status).toBe(200);
  const before = (await w.api.get(path(projectId))).body.github;
  const eventsBefore = (await integrationEvents(projectId)).length;

  const refused: [Record<string, unknown>, string, RegExp][] = [
    [{ directory: '../../etc' }, 'body.overrides.directory', /\.\. segments/],
    [{ directory: 'src/../../etc' }, 'body.overrides.directory', /\.\. segments/],
    [{ directory: '/etc' }, 'body.overrides.directory', /not an absolute path/],
    [{ directory: 'C:/Windows' }, 'body.overrides.directory', /not an absolute path/],
    [{ directory: 'src\\content' }, 'body.overrides.directory', /backslash/],
    [{ directory: 'src/content\0/x' }, 'body.overrides.directory', /NUL/],
    [{ imagesDirectory: '../outside' }, 'body.overrides.imagesDirectory', /\.\. segments/],
    [{ fileName: 'post.md' }, 'body.overrides.fileName', /must contain \{slug\}/],
    [{ fileName: '{slug}.html' }, 'body.overrides.fileName', /\.md, \.mdx or \.markdown/],
    [{ fileName: '../{slug}.md' }, 'body.overrides.fileName', /\.\. segments/],
    [{ fileName: '{slug}/{evil}.md' }, 'body.overrides.fileName', /only placeholders/],
    [{ extension: 'txt' }, 'body.overrides.extension', /./],
    [
      { fieldNames: { nonsense: 'x' } },
      'body.overrides.fieldNames',
      /unknown field role "nonsense"/,
    ],
    [{ fieldNames: { title: 'the title' } }, 'body.overrides.fieldNames.title', /plain YAML key/],
    [{ fieldNames: { title: 'a: b' } }, 'body.overrides.fieldNames.title', /plain YAML key/],
    [{ fieldNames: { draft: 'yes' } }, 'body.overrides.fieldNames.draft', /boolean or null/],
    [{ fieldNames: { title: 'NULL' } }, 'body.overrides.fieldNames.title', /boolean or null/],
    [{ fieldNames: { tags: '__proto__' } }, 'body.overrides.fieldNames.tags', /__proto__/],
    [
      { fieldNames: JSON.parse('{"__proto__":"x"}') },
      'body.overrides.fieldNames',
      /unknown field role "__proto__"/,
    ],
    [
      { fieldNames: { title: '<img src=x onerror=alert(1)>' } },
      'body.overrides.fieldNames.title',
      /plain YAML key/,
    ],
    [
      { imagesUrlPrefix: 'https://evil.example/' },
      'body.overrides.imagesUrlPrefix',
      /starting with \//,
    ],
    [{ imagesUrlPrefix: '//evil.example' }, 'body.overrides.imagesUrlPrefix', /another host/],
    [{ permalink: '/blog/../admin/{slug}' }, 'body.overrides.permalink', /\.\. segments/],
    [{ permalink: '/blog/' }, 'body.overrides.permalink', /\{slug\}/],
    [{ templateEngine: 'none' }, 'body.overrides', /templateEngine/],
  ];
  for (const [overrides, field, message] of refused) {
    // Each bad override rides with a good one: nothing of the body is saved.
    const answer = await w.api.patch(path(projectId), {
      contentDirectory: 'content/changed',
      overrides: { fileName: '{slug}/index.md', ...overrides },
    });
    expect(answer.status, JSON.stringify(overrides)).toBe(400);
    expect(answer.body.error.code).toBe('validation_failed');
    const issue = answer.body.error.details.find((d: { path: string }) => d.path === field);
    expect(issue?.message, `${JSON.stringify(overrides)}: ${JSON.stringify(answer.body)}`).toMatch(
      message,
    );
  }

  // Two fields under one name, a file name and an extension that disagree: refused as a whole.
  const collision = await w.api.patch(path(projectId), {
    overrides: { fieldNames: { description: 'title' } },
  });
  expect(collision.status).toBe(400);
  expect(collision.body.error.details).toEqual([
    { path: 'body.overrides.fieldNames.description', message: expect.stringMatching(/"title"/) },
  ]);
  const disagree = await w.api.patch(path(projectId), {
    overrides: { fileName: '{slug}.md', extension: 'mdx' },
  });
  expect(disagree.status).toBe(400);
  expect(disagree.body.error.details[0].path).toBe('body.overrides.extension');

  expect((await w.api.get(path(projectId))).body.github).toEqual(before);
  expect(await integrationEvents(projectId)).toHaveLength(eventsBefore);
});

test('only an owner or editor of the project may correct it: viewer 403, another account 404', async () => {
  const projectId = await connectedProject();
  const change = { overrides: { fileName: '{slug}/index.md' } };

  const stranger = w.app.api(await w.app.newKey('stranger-account'));
  expect((await stranger.patch(path(projectId), change)).status).toBe(404);
  expect((await stranger.post(`${path(projectId)}/profile/accept`)).status).toBe(404);
  expect((await stranger.get(path(projectId))).status).toBe(404);

  const asMember = async (email: string, role: 'viewer' | 'editor') => {
    const member = await signedInMember(w.app, { email, role });
    const { body } = await member.request('POST', '/access-token');
    return w.app.api(body.accessToken);
  };
  const viewer = await asMember('auditor@crumb.example', 'viewer');
  expect((await viewer.patch(path(projectId), change)).status).toBe(403);
  expect((await viewer.post(`${path(projectId)}/profile/accept`)).status).toBe(403);
  expect((await viewer.get(path(projectId))).body.github.contentProfile.overrides).toEqual({});

  const editor = await asMember('editor@crumb.example', 'editor');
  const edited = await editor.patch(path(projectId), change);
  expect(edited.status).toBe(200);
  expect(edited.body.github.contentProfile.overrides).toEqual({ fileName: '{slug}/index.md' });

  const unconnected = await w.project();
  expect((await w.api.patch(path(unconnected), change)).status).toBe(404);
  expect((await w.api.post(`${path(unconnected)}/profile/accept`)).status).toBe(404);
});

test('a legacy connection shows what was learned as proposed, and publishes it only once accepted', async () => {
  const projectId = await connectedProject();
  const fresh = (await w.api.get(path(projectId))).body.github.contentProfile;
  expect(fresh).toMatchObject({ state: 'legacy', learnedFrom: null, fields: [], proposed: null });

  const tooEarly = await w.api.post(`${path(projectId)}/profile/accept`);
  expect(tooEarly.status).toBe(409);
  expect(tooEarly.body.error.message).toMatch(/Nothing has been learned/);

  await recordProfile(w.app.platform, projectId, astroBlogProfile(), { commit: 'a'.repeat(40) });
  const waiting = (await w.api.get(path(projectId))).body.github.contentProfile;
  expect(waiting).toMatchObject({
    state: 'legacy',
    learnedFrom: { commit: 'a'.repeat(40) },
    toolchain: null,
    fileName: null,
    proposed: {
      toolchain: 'astro',
      collection: {
        directory: 'src/content/blog',
        alternatives: [{ directory: 'src/content/docs' }],
      },
      fileName: '{slug}.md',
    },
  });

  const accepted = await w.api.post(`${path(projectId)}/profile/accept`);
  expect(accepted.status).toBe(200);
  const profile = accepted.body.github.contentProfile;
  expect(profile).toMatchObject({
    state: 'learned',
    proposed: null,
    toolchain: 'astro',
    toolchainSource: { file: 'astro.config.mjs', line: 1 },
    collection: { name: 'blog', directory: 'src/content/blog' },
    fileName: '{slug}.md',
    extension: 'md',
    frontmatterFormat: 'yaml',
    templateEngine: 'none',
    images: { directory: 'src/assets', reference: 'relative' },
    servedRoot: 'public',
    permalink: '/blog/{slug}/',
  });
  expect(profile.fields[2]).toEqual({
    role: 'date',
    name: 'pubDate',
    type: 'date',
    format: null,
    required: true,
    values: null,
    source: { file: 'src/content.config.ts', line: 11 },
  });
  expect((await w.api.post(`${path(projectId)}/profile/accept`)).status).toBe(200); // again: no change
  expect((await w.api.get(path(projectId))).body.github.contentProfile).toEqual(profile);
});

test('PATCH corrects the profile and the folders without the credential; null returns to what was learned; the history names who', async () => {
  const projectId = await connectedProject();
  await recordProfile(w.app.platform, projectId, astroBlogProfile());
  await w.api.post(`${path(projectId)}/profile/accept`);
  const before = (await w.api.get(path(projectId))).body.github;

  const patched = await w.api.patch(path(projectId), {
    contentDirectory: 'src/content/posts',
    coverDirectory: 'public/covers',
    commentPermission: 'maintain',
    overrides: {
      directory: 'src/content/news',
      extension: 'mdx',
      fieldNames: { date: 'published', updated: false },
      imagesDirectory: 'public/images/news',
      imagesReference: 'absolute',
      imagesUrlPrefix: '/images/news',
      permalink: '/news/{year}/{slug}/',
    },
  });
  expect(patched.status).toBe(200);
  const github = patched.body.github;
  expect(github).toMatchObject({
    contentDirectory: 'src/content/posts',
    coverDirectory: 'public/covers',
    comments: { minimumPermission: 'maintain' },
    credentials: { type: 'token' },
    connectedAt: before.connectedAt,
    webhook: { secretIssuedAt: before.webhook.secretIssuedAt },
  });
  expect(github.webhook.secret).toBeUndefined();
  const profile = github.contentProfile;
  expect(profile).toMatchObject({
    collection: { directory: 'src/content/news' },
    // The extension is part of the file name: changing one changes both.
    fileName: '{slug}.mdx',
    extension: 'mdx',
    images: { directory: 'public/images/news', reference: 'absolute', urlPrefix: '/images/news' },
    permalink: '/news/{year}/{slug}/',
    overrides: { fieldNames: { date: 'published', updated: false } },
  });
  expect(profile.fields.map((f: { name: string }) => f.name)).toEqual([
    'title',
    'description',
    'published',
    'heroImage',
  ]);
  expect(profile.fields[2].source).toEqual({ file: 'inkstream:overrides', line: null });
  expect((await w.api.get(path(projectId))).body.github).toEqual(github);
  expect((await w.api.get(`/projects/${projectId}`)).body.project.integrations.github).toEqual({
    repository: 'acme/site',
    publishMode: 'pr',
    credentials: 'token',
  });

  const undone = await w.api.patch(path(projectId), {
    overrides: { extension: null, fieldNames: { date: null } },
  });
  expect(undone.body.github.contentProfile).toMatchObject({
    fileName: '{slug}.md',
    extension: 'md',
  });
  expect(undone.body.github.contentProfile.overrides.fieldNames).toEqual({ updated: false });
  expect(undone.body.github.contentProfile.fields[2].name).toBe('pubDate');

  // The same body again records nothing.
  const count = (await integrationEvents(projectId)).length;
  expect((await w.api.patch(path(projectId), { overrides: { extension: null } })).status).toBe(200);
  expect(await integrationEvents(projectId)).toHaveLength(count);

  const history = await w.api.get(`/projects/${projectId}/integrations/history`);
  expect(history.status).toBe(200);
  const entries = history.body.history.slice(-6);
  const types = entries.map((entry: { type: string }) => entry.type);
  expect(types).toEqual([
    'GitHubConnected',
    'ContentProfileLearned',
    'ContentProfileAccepted',
    'GitHubSettingsChanged',
    'ContentProfileOverridesSet',
    'ContentProfileOverridesSet',
  ]);
  const changed = entries[3];
  expect(changed.actor).toMatchObject({ kind: 'api_key' });
  expect(changed.data).toMatchObject({
    contentDirectory: 'src/content/posts',
    commentPermission: 'maintain',
  });
  expect(entries[2].actor).toMatchObject({ kind: 'api_key' });
  expect(JSON.stringify(history.body)).not.toMatch(/sealed/i);
});

test('a connection made since profiles are learned is learning until the learner records it, and says why it failed', async () => {
  const projectId = await connectedProject('learning');
  const learning = (await w.api.get(path(projectId))).body.github.contentProfile;
  expect(learning).toMatchObject({ state: 'learning', failureReason: null, proposed: null });
  expect((await w.api.post(`${path(projectId)}/profile/accept`)).status).toBe(409);

  // Overrides may be set before anything is learned; they apply once it is.
  expect(
    (await w.api.patch(path(projectId), { overrides: { fileName: '{date}-{slug}.md' } })).status,
  ).toBe(200);

  await recordProfile(w.app.platform, projectId, null, {
    failureReason: 'src/content.config.ts could not be parsed (line 3)',
  });
  expect((await w.api.get(path(projectId))).body.github.contentProfile).toMatchObject({
    state: 'failed',
    failureReason: 'src/content.config.ts could not be parsed (line 3)',
    toolchain: null,
  });

  await recordProfile(w.app.platform, projectId, astroBlogProfile(), { commit: 'b'.repeat(40) });
  expect((await w.api.get(path(projectId))).body.github.contentProfile).toMatchObject({
    state: 'learned',
    failureReason: null,
    fileName: '{date}-{slug}.md',
  });
});
