import { createHash } from 'node:crypto';
import type { GitHubCredentials } from '../../../integrations/github/credentials.ts';
import { createOctokitGitHub } from '../../../integrations/github/octokit.ts';
import type { GitHubPort } from '../../../integrations/github/port.ts';
import type { RetryPolicy } from '../../../integrations/github/retry.ts';
import type { Platform } from '../../../platform.ts';
import type { GitHubConnection } from '../../../domain/integrations/integrations.ts';

/**
 * Waits inside one GitHub call stay short: a longer one (a rate limit) comes back as a retryable
 * error with `retryAfterMs`, and the job is scheduled again for then instead of holding a worker.
 */
export const PUBLISH_RETRY_POLICY: Partial<RetryPolicy> = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 2_000,
  maxWaitMs: 5_000,
};

const MAX_CACHED = 200;

export type GitHubClients = {
  /** A port for these credentials; ports are reused, so an App's installation token is bought once an hour, not per call. */
  port(credentials: GitHubCredentials): GitHubPort;
  /** The port of a stored connection (its credentials unsealed in memory only); `owner` is the record they were sealed for. */
  forConnection(
    connection: GitHubConnection,
    owner: { accountId: string; projectId: string },
  ): GitHubPort;
};

const clients = new WeakMap<Platform, GitHubClients>();

export function githubClients(platform: Platform): GitHubClients {
  const existing = clients.get(platform);
  if (existing) return existing;
  const cache = new Map<string, GitHubPort>();
  const port = (credentials: GitHubCredentials): GitHubPort => {
    const key = createHash('sha256').update(JSON.stringify(credentials)).digest('hex');
    let found = cache.get(key);
    if (!found) {
      found = createOctokitGitHub({
        credentials,
        baseUrl: platform.config.GITHUB_API_URL,
        nowMs: () => platform.clock.nowMs(),
        retry: PUBLISH_RETRY_POLICY,
        userAgent: 'Inkstream-Publisher/0.1',
      });
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
      cache.set(key, found);
    }
    return found;
  };
  const made: GitHubClients = {
    port,
    forConnection: (connection, owner) =>
      port(
        JSON.parse(
          platform.secrets.open(connection.sealedCredentials, {
            kind: 'github-credentials',
            accountId: owner.accountId,
            recordId: owner.projectId,
          }),
        ) as GitHubCredentials,
      ),
  };
  clients.set(platform, made);
  return made;
}
