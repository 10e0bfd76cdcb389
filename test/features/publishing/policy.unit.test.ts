import { expect, test } from 'vitest';
import { buildMdx, parseMdx } from '../../../src/mdx/mdx.ts';
import { GitHubError } from '../../../src/integrations/github/errors.ts';
import { mdxFor } from '../../../src/features/publishing/articleFiles.ts';
import { slugOfPath } from '../../../src/domain/articles/article.ts';
import { decideIntegrations } from '../../../src/domain/integrations/decide.ts';
import { initialIntegrations } from '../../../src/domain/integrations/integrations.ts';
import {
  decideOnFailure,
  MAX_JOB_ATTEMPTS,
} from '../../../src/features/publishing/jobs/jobFailure.ts';

const githubError = (code: GitHubError['code'], retryable: boolean, retryAfterMs?: number) =>
  new GitHubError({
    code,
    status: 0,
    retryable,
    reason: `reason for ${code}.`,
    operation: 'do it',
    retryAfterMs,
  });

test('rate limits wait as long as GitHub asked; outages back off; refusals give up at once with the reason', () => {
  expect(decideOnFailure(githubError('rate_limited', true, 90_000), 0, 'Publishing')).toEqual({
    kind: 'retry',
    afterMs: 90_000,
    error: 'reason for rate_limited.',
  });
  expect(decideOnFailure(githubError('unavailable', true), 2, 'Publishing')).toEqual({
    kind: 'retry',
    afterMs: 120_000,
    error: 'reason for unavailable.',
  });
  expect(decideOnFailure(githubError('conflict', false), 0, 'Publishing').kind).toBe('retry');
  expect(
    decideOnFailure(githubError('missing_permission', false), 0, 'Publishing to acme/site'),
  ).toEqual({
    kind: 'give_up',
    reason: 'Publishing to acme/site failed: reason for missing_permission.',
  });
  expect(
    decideOnFailure(githubError('unavailable', true), MAX_JOB_ATTEMPTS - 1, 'Publishing'),
  ).toEqual({
    kind: 'give_up',
    reason: `Publishing failed after ${MAX_JOB_ATTEMPTS} attempts: reason for unavailable.`,
  });
});

test('an MDX committed under another slug names that slug and its cover; the body is untouched', () => {
  const mdx = buildMdx(
    {
      title: 'Rye',
      description: 'All about rye.',
      slug: 'rye',
      date: '2026-01-01',
      keyword: 'rye',
      tags: [],
      cover: '/images/covers/rye.png',
      author: 'Crumb',
      generator: { provider: 'offline', model: 'offline' },
    },
    'Rye is a grain.\n',
  );
  expect(mdxFor(mdx, 'rye')).toBe(mdx);
  const moved = parseMdx(mdxFor(mdx, 'rye-2'));
  expect(moved.frontmatter).toMatchObject({
    slug: 'rye-2',
    cover: '/images/covers/rye-2.png',
    title: 'Rye',
  });
  expect(moved.body).toBe(parseMdx(mdx).body);
  expect(mdxFor(mdx, 'rye-2')).toBe(mdxFor(mdx, 'rye-2')); // the same bytes on every run
  expect(slugOfPath('content/blog/rye-2.mdx')).toBe('rye-2');
});

test('saving a connection again keeps its webhook secret unless a new one is issued', () => {
  const settings = {
    owner: 'acme',
    repo: 'site',
    baseBranch: 'main',
    contentDirectory: 'content/blog',
    coverDirectory: 'public',
    publishMode: 'pr' as const,
    commentPermission: 'write' as const,
  };
  const connect = (sealedWebhookSecret: string | null, at: string) => ({
    type: 'ConnectGitHub' as const,
    projectId: 'prj_1',
    accountId: 'acc_1',
    settings,
    credentials: { type: 'token' as const },
    sealedCredentials: 'sealed-token',
    sealedWebhookSecret,
    at,
  });
  expect(() => decideIntegrations(connect(null, 't0'), initialIntegrations())).toThrow(
    /removed by another request/,
  );
  const [first] = decideIntegrations(connect('sealed-1', 't1'), initialIntegrations());
  const state = {
    ...initialIntegrations(),
    projectId: 'prj_1',
    github: {
      ...settings,
      credentials: { type: 'token' as const },
      sealedCredentials: 'x',
      sealedWebhookSecret: 'sealed-1',
      webhookSecretIssuedAt: 't1',
      connectedAt: 't1',
      contentProfile: {
        state: 'legacy' as const,
        learnedFrom: null,
        learned: null,
        failureReason: null,
        overrides: {},
      },
    },
  };
  const [kept] = decideIntegrations(connect(null, 't2'), state);
  expect(first.type === 'GitHubConnected' && first.data.sealedWebhookSecret).toBe('sealed-1');
  expect(
    kept.type === 'GitHubConnected' && [
      kept.data.sealedWebhookSecret,
      kept.data.webhookSecretIssuedAt,
    ],
  ).toEqual(['sealed-1', 't1']);
  expect(() => decideIntegrations({ type: 'RemovePostPublishHook', at: 't3' }, state)).toThrow(
    /no post-publish hook/,
  );
});
