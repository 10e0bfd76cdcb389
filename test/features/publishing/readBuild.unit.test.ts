import { describe, expect, test } from 'vitest';
import { GitHubError } from '../../../src/integrations/github/errors.ts';
import { type BuildReader, readBuild } from '../../../src/features/publishing/build/readBuild.ts';

/**
 * What a hostile or careless CI can put in its reports (check runs, statuses, deployments) and
 * what the article's build keeps of it. The reader is a plain object answering as the port
 * would; the wire formats themselves are the fake GitHub's (siteBuild.e2e.test.ts).
 */
const SHA = 'a'.repeat(40);
const refused = (operation: string) =>
  new GitHubError({
    code: 'missing_permission',
    status: 403,
    retryable: false,
    reason: 'Resource not accessible by personal access token',
    operation,
  });

function reader(overrides: Partial<BuildReader> = {}): BuildReader {
  return {
    listCheckRuns: async () => [],
    listCheckRunAnnotations: async () => [],
    getCombinedStatus: async () => [],
    listDeployments: async () => [],
    listDeploymentStatuses: async () => [],
    listActionsJobs: async () => [],
    ...overrides,
  };
}

describe('readBuild: hostile reports first', () => {
  test('only https URLs are kept; javascript:, data:, http: and credentials become null', async () => {
    const build = await readBuild(
      reader({
        getCombinedStatus: async () =>
          [
            'javascript:alert(1)',
            'data:text/html,<script>alert(1)</script>',
            'http://ci.example/1',
            'https://user:pass@ci.example/1',
            'https://ci.example/ok',
          ].map((targetUrl, i) => ({
            context: `ci-${i}`,
            state: 'success',
            targetUrl,
            description: null,
          })),
        listDeployments: async () => [{ id: 1, environment: 'Preview' }],
        listDeploymentStatuses: async () => [
          { state: 'success', environmentUrl: 'javascript:alert(2)' },
        ],
      }),
      SHA,
      'content/blog/x.mdx',
    );
    expect(build.checks.map((c) => c.url)).toEqual([
      null,
      null,
      null,
      null,
      'https://ci.example/ok',
    ]);
    expect(build.previewUrl).toBeNull();
  });

  test('names and details are bounded and on one line; inkstream/quality is never part of the build', async () => {
    const build = await readBuild(
      reader({
        listCheckRuns: async () => [
          {
            id: 7,
            name: `build\n${'x'.repeat(500)}`,
            status: 'completed',
            conclusion: 'failure',
            detailsUrl: null,
            htmlUrl: null,
            title: null,
            summary: `line one\u202e\nline two ${'y'.repeat(2_000)}`,
          },
        ],
        getCombinedStatus: async () => [
          { context: 'inkstream/quality', state: 'failure', targetUrl: null, description: 'ours' },
        ],
      }),
      SHA,
      null,
    );
    expect(build.checks).toHaveLength(1);
    const [check] = build.checks;
    expect([...check.name].length).toBeLessThanOrEqual(100);
    expect(check.name).not.toContain('\n');
    expect(check.detail).not.toMatch(/[\n\u202e]/);
    expect([...(check.detail ?? '')].length).toBeLessThanOrEqual(500);
    expect(build.state).toBe('failure');
  });
});

describe('readBuild: what a credential may read', () => {
  test('no Checks permission: the Actions jobs stand in for the check runs', async () => {
    const build = await readBuild(
      reader({
        listCheckRuns: async () => {
          throw refused('read the check runs');
        },
        listActionsJobs: async () => [
          {
            name: 'build',
            workflowName: 'Deploy',
            status: 'in_progress',
            conclusion: null,
            htmlUrl: 'https://github.com/a/b/actions/runs/1/job/2',
          },
        ],
      }),
      SHA,
      null,
    );
    expect(build).toMatchObject({
      state: 'pending',
      checks: [
        {
          name: 'Deploy / build',
          state: 'pending',
          url: 'https://github.com/a/b/actions/runs/1/job/2',
        },
      ],
      reason: null,
    });
  });

  test('nothing readable: unknown, naming the permissions; GitHub down is thrown for the next pass', async () => {
    const blind = reader({
      listCheckRuns: async () => {
        throw refused('read the check runs');
      },
      listActionsJobs: async () => {
        throw refused('read the workflow runs');
      },
      getCombinedStatus: async () => {
        throw refused('read the statuses');
      },
    });
    const build = await readBuild(blind, SHA, null);
    expect(build.state).toBe('unknown');
    expect(build.reason).toContain('Checks: read');
    expect(build.reason).toContain('Actions: read');
    expect(build.reason).toContain('Commit statuses: read');
    const down = reader({
      getCombinedStatus: async () => {
        throw new GitHubError({
          code: 'unavailable',
          status: 502,
          retryable: true,
          reason: 'Bad gateway',
          operation: 'read',
        });
      },
    });
    await expect(readBuild(down, SHA, null)).rejects.toThrow('Bad gateway');
  });
});
