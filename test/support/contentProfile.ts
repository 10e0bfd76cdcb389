import type { LearnedProfile } from '../../src/domain/integrations/contentProfile.ts';
import { integrationsStream } from '../../src/domain/integrations/decide.ts';
import { accountIdForName } from '../../src/domain/accounts/account.ts';
import { type CommandContext, loadStream } from '../../src/eventstore/handleCommand.ts';
import type { Platform } from '../../src/platform.ts';
import type { TestInkstream } from './inkstream.ts';

/**
 * Content profiles on a test connection, recorded with the domain's own commands as the learner
 * records them: a hand-written LearnedProfile of an Astro blog (Astro's blog template's schema).
 */
export function astroBlogProfile(overrides: Partial<LearnedProfile> = {}): LearnedProfile {
  return {
    toolchain: 'astro',
    toolchainSource: { file: 'astro.config.mjs', line: 1 },
    collection: {
      name: 'blog',
      directory: 'src/content/blog',
      source: { file: 'src/content.config.ts', line: 5 },
      alternatives: [
        {
          name: 'docs',
          directory: 'src/content/docs',
          source: { file: 'src/content.config.ts', line: 18 },
        },
      ],
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
        source: { file: 'src/content.config.ts', line: 8 },
      },
      {
        role: 'description',
        name: 'description',
        type: 'string',
        required: true,
        source: { file: 'src/content.config.ts', line: 9 },
      },
      {
        role: 'date',
        name: 'pubDate',
        type: 'date',
        required: true,
        source: { file: 'src/content.config.ts', line: 11 },
      },
      {
        role: 'updated',
        name: 'updatedDate',
        type: 'date',
        required: false,
        source: { file: 'src/content.config.ts', line: 12 },
      },
      {
        role: 'cover',
        name: 'heroImage',
        type: 'image',
        required: false,
        source: { file: 'src/content.config.ts', line: 13 },
      },
    ],
    vocabulary: { tags: [], authors: [] },
    images: {
      directory: 'src/assets',
      reference: 'relative',
      urlPrefix: '',
      format: 'jpg',
      source: { file: 'src/content/blog/first-post.md', line: 5 },
    },
    servedRoot: 'public',
    permalink: '/blog/{slug}/',
    excerptSeparator: null,
    notes: [],
    ...overrides,
  };
}

let step = 0;
const context = (account: string): CommandContext => ({
  accountId: accountIdForName(account),
  actor: { kind: 'system', worker: 'test.learner' },
  correlationId: `test-profile-${step}`,
  requestId: `test-profile-${step}`,
  commandId: `test-profile:${process.pid}:${Date.now()}:${step++}`,
});

/** What the learner records after reading the base branch at `commit`. */
export async function recordProfile(
  platform: Pick<Platform, 'commands' | 'clock'>,
  projectId: string,
  learned: LearnedProfile | null,
  options: { account?: string; commit?: string; failureReason?: string } = {},
): Promise<void> {
  const commit = options.commit ?? 'c0ffee0000000000000000000000000000000001';
  await platform.commands.execute(
    integrationsStream,
    projectId,
    {
      type: 'RecordContentProfile',
      learnedFrom: { commit, tree: `tree-of-${commit}` },
      learned,
      failureReason: learned ? null : (options.failureReason ?? 'the repository could not be read'),
      at: platform.clock.now(),
    },
    context(options.account ?? 'test'),
  );
}

/**
 * Stops the consumer that learns profiles from the repository (by name; absent before the
 * learner is merged), so the profiles a test records by hand are the only ones.
 */
export async function stopProfileLearner(app: TestInkstream): Promise<void> {
  await Promise.all(
    app.background.consumers
      .filter((consumer) => consumer.name === 'publishing.profileLearner')
      .map((consumer) => consumer.stop()),
  );
}

/**
 * Records the project's connection again as one made before profiles were learned (`legacy`:
 * no `learnsProfile` on GitHubConnected) or since (`learning`), through the real decide with that
 * one field set: disconnected, then connected with the same settings and sealed values.
 */
export async function reconnectAs(
  platform: Pick<Platform, 'commands' | 'clock' | 'eventStore'>,
  projectId: string,
  kind: 'legacy' | 'learning',
  account = 'test',
): Promise<void> {
  const { state } = await loadStream(platform.eventStore, integrationsStream, projectId);
  const github = state.github;
  if (!github || !state.accountId) throw new Error(`${projectId} has no GitHub connection`);
  const made: typeof integrationsStream = {
    ...integrationsStream,
    decide: (command, current) =>
      integrationsStream.decide(command, current).map((event) => {
        if (event.type !== 'GitHubConnected') return event;
        const { learnsProfile: _learnsProfile, ...rest } = event.data;
        // The same connection: its webhook secret keeps the time it was issued.
        const data = { ...rest, webhookSecretIssuedAt: github.webhookSecretIssuedAt };
        return { ...event, data: kind === 'learning' ? { ...data, learnsProfile: true } : data };
      }),
  };
  await platform.commands.execute(
    integrationsStream,
    projectId,
    { type: 'DisconnectGitHub', at: platform.clock.now() },
    context(account),
  );
  await platform.commands.execute(
    made,
    projectId,
    {
      type: 'ConnectGitHub',
      projectId,
      accountId: state.accountId,
      settings: {
        owner: github.owner,
        repo: github.repo,
        baseBranch: github.baseBranch,
        contentDirectory: github.contentDirectory,
        coverDirectory: github.coverDirectory,
        publishMode: github.publishMode,
        commentPermission: github.commentPermission,
      },
      credentials: github.credentials,
      sealedCredentials: github.sealedCredentials,
      sealedWebhookSecret: github.sealedWebhookSecret,
      at: platform.clock.now(),
    },
    context(account),
  );
}
