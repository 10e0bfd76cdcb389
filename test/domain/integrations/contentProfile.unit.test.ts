import { expect, test } from 'vitest';
import {
  type ContentProfile,
  effectiveProfile,
  type LearnedProfile,
} from '../../../src/domain/integrations/contentProfile.ts';
import { integrationsStream } from '../../../src/domain/integrations/decide.ts';
import type { IntegrationEvent } from '../../../src/domain/integrations/integrations.ts';
import { given } from '../../support/decider.ts';

const learned: LearnedProfile = {
  toolchain: 'astro',
  toolchainSource: { file: 'astro.config.mjs' },
  collection: {
    name: 'blog',
    directory: 'src/content/blog',
    source: { file: 'src/content.config.ts', line: 5 },
    alternatives: [],
  },
  fileName: '{slug}.md',
  extension: 'md',
  frontmatterFormat: 'yaml',
  templateEngine: 'none',
  fields: [
    {
      role: 'title',
      name: 'title',
      type: 'string',
      required: true,
      source: { file: 'c.ts', line: 8 },
    },
    {
      role: 'date',
      name: 'pubDate',
      type: 'date',
      required: true,
      source: { file: 'c.ts', line: 9 },
    },
    {
      role: 'tags',
      name: 'tags',
      type: 'string[]',
      required: false,
      source: { file: 'c.ts', line: 10 },
    },
  ],
  vocabulary: { tags: [], authors: [] },
  images: null,
  servedRoot: 'public',
  permalink: '/blog/{slug}/',
  excerptSeparator: null,
  notes: [],
};

const connected = (learnsProfile: boolean, repo = 'site'): IntegrationEvent => ({
  type: 'GitHubConnected',
  data: {
    projectId: 'prj_1',
    accountId: 'acc_1',
    owner: 'acme',
    repo,
    baseBranch: 'main',
    contentDirectory: 'content/blog',
    coverDirectory: 'public/images/covers',
    publishMode: 'pr',
    commentPermission: 'write',
    credentials: { type: 'token' },
    sealedCredentials: 'sealed',
    sealedWebhookSecret: 'sealed-secret',
    webhookSecretIssuedAt: 't0',
    ...(learnsProfile ? { learnsProfile: true as const } : {}),
    at: 't0',
  },
});
const learnedFrom = { commit: 'c1', tree: 't1' };
const record = {
  type: 'RecordContentProfile' as const,
  learnedFrom,
  learned,
  failureReason: null,
  at: 't1',
};
const learnedEvent: IntegrationEvent = {
  type: 'ContentProfileLearned',
  data: { projectId: 'prj_1', learnedFrom, learned, failureReason: null, at: 't1' },
};

test('a new connection publishes with what was learned from its repository', () => {
  const state = given(integrationsStream, connected(true)).when(record).thenYields(learnedEvent);
  expect(state.github?.contentProfile.state).toBe('learned');
  expect(effectiveProfile(state.github!.contentProfile)?.fields.map((f) => f.name)).toEqual([
    'title',
    'pubDate',
    'tags',
  ]);
});

test('the same tree learned again with the same answer records nothing', () => {
  given(integrationsStream, connected(true), learnedEvent).when(record).thenNothing();
});

test('a connection made before profiles keeps the legacy shape until a person accepts', () => {
  const state = given(integrationsStream, connected(false)).when(record).thenYields(learnedEvent);
  expect(state.github?.contentProfile.state).toBe('legacy');
  expect(effectiveProfile(state.github!.contentProfile)).toBeNull();
  const accepted = given(integrationsStream, connected(false), learnedEvent)
    .when({ type: 'AcceptContentProfile', at: 't2' })
    .thenYields({ type: 'ContentProfileAccepted', data: { projectId: 'prj_1', at: 't2' } });
  expect(effectiveProfile(accepted.github!.contentProfile)?.toolchain).toBe('astro');
});

test('accepting before anything was learned is refused', () => {
  given(integrationsStream, connected(false))
    .when({ type: 'AcceptContentProfile', at: 't2' })
    .thenFails('invalid_state');
});

test('a failed learning leaves nothing to publish with, and says why', () => {
  const state = given(integrationsStream, connected(true))
    .when({ ...record, learned: null, failureReason: 'no posts found' })
    .thenYields({
      type: 'ContentProfileLearned',
      data: {
        projectId: 'prj_1',
        learnedFrom,
        learned: null,
        failureReason: 'no posts found',
        at: 't1',
      },
    });
  expect(state.github?.contentProfile).toMatchObject({
    state: 'failed',
    failureReason: 'no posts found',
  });
  expect(effectiveProfile(state.github!.contentProfile)).toBeNull();
});

test("a person's override wins over what was learned, naming itself as the source", () => {
  const profile: ContentProfile = {
    state: 'learned',
    learnedFrom,
    learned,
    failureReason: null,
    overrides: { directory: 'src/content/posts', fieldNames: { date: 'publishDate', tags: null } },
  };
  const effective = effectiveProfile(profile)!;
  expect(effective.collection.directory).toBe('src/content/posts');
  expect(effective.fields.map((f) => [f.name, f.source.file])).toEqual([
    ['title', 'c.ts'],
    ['publishDate', 'inkstream:overrides'],
  ]);
});

test('reconnecting the same repository keeps its profile; another repository starts over', () => {
  const kept = given(integrationsStream, connected(true), learnedEvent, connected(true)).state;
  expect(kept.github?.contentProfile.state).toBe('learned');
  const other = given(
    integrationsStream,
    connected(true),
    learnedEvent,
    connected(true, 'other'),
  ).state;
  expect(other.github?.contentProfile).toMatchObject({ state: 'learning', learned: null });
});

test('commands on a project without a connection are 404', () => {
  given(integrationsStream).when(record).thenFails('not_found');
  given(integrationsStream)
    .when({ type: 'SetContentProfileOverrides', overrides: {}, at: 't1' })
    .thenFails('not_found');
});
