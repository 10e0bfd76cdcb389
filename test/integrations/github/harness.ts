import { manualClock } from '../../../src/core/clock.ts';
import type { GitHubCredentials } from '../../../src/integrations/github/credentials.ts';
import { createOctokitGitHub } from '../../../src/integrations/github/octokit.ts';
import type { RetryPolicy } from '../../../src/integrations/github/retry.ts';
import { FakeGitHub, type FakeGitHubOptions } from '../../support/fakeGitHub.ts';

/**
 * A fake GitHub holding `acme/site` (a `main` branch with a README and one article) and a port
 * talking to it. Time is a manual clock shared by both; sleeping only records the wait and moves
 * the clock, so retries are instant and their waits can be asserted.
 */
export async function startHarness(
  options: { fake?: FakeGitHubOptions; retry?: Partial<RetryPolicy> } = {},
) {
  const clock = manualClock('2026-03-01T09:00:00.000Z');
  const sleeps: number[] = [];
  const github = await FakeGitHub.start({ nowMs: clock.nowMs, ...options.fake });
  github.addRepository({
    owner: 'acme',
    name: 'site',
    files: {
      'README.md': '# Acme site\n',
      'content/blog/hello.mdx': '---\ntitle: Hello\n---\n\nHi.\n',
    },
  });
  github.addToken('ghp_writer', { login: 'inkbot', repositories: { 'acme/site': 'write' } });
  const connect = (credentials: GitHubCredentials) =>
    createOctokitGitHub({
      credentials,
      baseUrl: github.baseUrl,
      nowMs: clock.nowMs,
      retry: options.retry,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.advance(ms);
      },
    });
  const port = connect({ type: 'token', token: 'ghp_writer' });
  return {
    github,
    clock,
    sleeps,
    connect,
    port,
    site: port.repository({ owner: 'acme', repo: 'site' }),
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
