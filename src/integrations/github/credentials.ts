import type { Octokit } from '@octokit/rest';
import { GitHubError } from './errors.ts';

/**
 * The two kinds of credential a project can give: a fine-grained personal access token, or a
 * GitHub App installation (the app's private key signs a JWT that buys a one-hour installation
 * token, cached and renewed by @octokit/auth-app).
 */
export type GitHubCredentials =
  | { type: 'token'; token: string }
  | { type: 'app'; appId: number | string; installationId: number; privateKey: string };

export type TokenSource = {
  /** A token for the Authorization header; `refresh` forces a new installation token. */
  token(options?: { refresh?: boolean }): Promise<string>;
  /** The installation's permissions (`contents: 'write'`…), or null when they cannot be known (tokens). */
  permissions(): Promise<Record<string, string> | null>;
  readonly refreshable: boolean;
};

/**
 * `request` is a plain, unauthenticated Octokit request bound to the API base URL: it carries
 * only the access-token exchange, so @octokit/auth-app's request hook (and its hidden 401 retry
 * timers) never wraps our calls.
 */
export function createTokenSource(
  credentials: GitHubCredentials,
  request: Octokit['request'],
): TokenSource {
  if (credentials.type === 'token') {
    return {
      token: async () => credentials.token,
      permissions: async () => null,
      refreshable: false,
    };
  }
  // Loaded with the first token it is asked for, not at start (docs/memory.md).
  let auth: Promise<ReturnType<typeof import('@octokit/auth-app').createAppAuth>> | undefined;
  const appAuth = () =>
    (auth ??= import('@octokit/auth-app').then(({ createAppAuth }) =>
      createAppAuth({
        appId: credentials.appId,
        privateKey: credentials.privateKey,
        installationId: credentials.installationId,
        request,
      }),
    ));
  const installation = async (refresh = false) => {
    try {
      return await (await appAuth())({ type: 'installation', refresh });
    } catch (error) {
      if (typeof (error as { status?: unknown }).status === 'number') throw error; // GitHub answered: classified by the caller
      throw new GitHubError({
        code: 'token_invalid',
        status: 0,
        retryable: false,
        operation: 'authenticate as the GitHub App installation',
        cause: error,
        reason: `the GitHub App private key could not be used (${(error as Error).message}). Paste the app's private key PEM as downloaded from the app settings.`,
      });
    }
  };
  return {
    token: async (options) => (await installation(options?.refresh)).token,
    permissions: async () => (await installation()).permissions as Record<string, string>,
    refreshable: true,
  };
}
