/**
 * Every GitHub failure becomes one GitHubError: a closed `code` to branch on, whether trying again
 * later can help, and a `reason` written for the person who has to fix it.
 */

export type GitHubErrorCode =
  | 'token_invalid' //       401: the token (or App key) is wrong, expired or revoked
  | 'missing_permission' //  403: the credential may not do this; `reason` names the permission
  | 'rate_limited' //        403/429 with rate-limit signals; retryable after `retryAfterMs`
  | 'not_found' //           404: repository missing or invisible to the credential
  | 'installation_missing' // 404 on a GitHub App installation's token: wrong installation id, or uninstalled
  | 'branch_missing' //      the named branch does not exist
  | 'validation_failed' //   422 and other 4xx: GitHub refused the request as sent
  | 'conflict' //            the branch moved (not a fast-forward, head changed), 409
  | 'unavailable'; //        5xx or no answer; retryable

export class GitHubError extends Error {
  readonly code: GitHubErrorCode;
  /** The HTTP status GitHub answered; 0 when no answer arrived. */
  readonly status: number;
  readonly retryable: boolean;
  /** What the user (or operator) must do about it. */
  readonly reason: string;
  /** How long to wait before trying again, when GitHub said so (rate limits). */
  readonly retryAfterMs?: number;

  constructor(input: {
    code: GitHubErrorCode;
    status: number;
    retryable: boolean;
    reason: string;
    operation: string;
    retryAfterMs?: number;
    cause?: unknown;
  }) {
    super(`GitHub could not ${input.operation}: ${input.reason}`, { cause: input.cause });
    this.name = 'GitHubError';
    this.code = input.code;
    this.status = input.status;
    this.retryable = input.retryable;
    this.reason = input.reason;
    this.retryAfterMs = input.retryAfterMs;
  }
}

export const isGitHubError = (error: unknown): error is GitHubError => error instanceof GitHubError;

/** An answer GitHub gave (or `status: 0` when the request got no answer). */
export type HttpFailure = {
  status: number;
  headers: Record<string, string | undefined>;
  /** GitHub's `message`, with the messages of its `errors` list appended. */
  message: string;
};

/** What was being attempted, to word the reason. */
export type OperationContext = {
  operation: string; //   "create a commit"
  repository?: string; // "acme/site"
  permission?: string; // "contents:write" — named in 403 reasons unless GitHub names one
  notFound?: string; //   a 404 reason more precise than "repository not found"
};

const SECONDARY_RATE_LIMIT_WAIT_MS = 60_000; // GitHub: "wait at least one minute" without retry-after

function rateLimitWait(failure: HttpFailure, nowMs: number): number | null {
  const { headers } = failure;
  const retryAfter = headers['retry-after'];
  if (retryAfter !== undefined && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter) * 1000;
  if (headers['x-ratelimit-remaining'] === '0' && headers['x-ratelimit-reset']) {
    return Math.max(Number(headers['x-ratelimit-reset']) * 1000 - nowMs, 1000);
  }
  if (failure.status === 429 || /rate limit/i.test(failure.message))
    return SECONDARY_RATE_LIMIT_WAIT_MS;
  return null;
}

export function classifyFailure(
  failure: HttpFailure,
  context: OperationContext,
  nowMs: number,
  cause?: unknown,
): GitHubError {
  const { status, message } = failure;
  const where = context.repository ?? 'the repository';
  const make = (code: GitHubErrorCode, retryable: boolean, reason: string, retryAfterMs?: number) =>
    new GitHubError({
      code,
      status,
      retryable,
      reason,
      operation: context.operation,
      retryAfterMs,
      cause,
    });

  if (status === 0) {
    return make(
      'unavailable',
      true,
      `no answer from GitHub (${message}). Check the GitHub API base URL and that this server can reach it.`,
    );
  }
  if (status === 401) {
    return make(
      'token_invalid',
      false,
      `GitHub rejected the credential (401 ${message}): the token is invalid, expired or revoked, or the GitHub App id/private key is wrong. Save a new credential in the project's GitHub integration.`,
    );
  }
  if (status === 403 || status === 429) {
    const wait = rateLimitWait(failure, nowMs);
    if (wait !== null) {
      return make(
        'rate_limited',
        true,
        `GitHub rate limit reached (${message}); try again in ${Math.ceil(wait / 1000)} s.`,
        wait,
      );
    }
  }
  if (status === 403) {
    const accepted = failure.headers['x-accepted-github-permissions'];
    const needed = accepted
      ? accepted.replaceAll('=', ':')
      : (context.permission ?? 'write access');
    return make(
      'missing_permission',
      false,
      `the credential may not do this in ${where} (403 ${message}). Grant it ${needed} on ${where} (fine-grained token: Repository permissions; GitHub App: its permissions and installation).`,
    );
  }
  if (status === 404) {
    return make(
      'not_found',
      false,
      context.notFound ??
        `${where} was not found, or the credential cannot see it. Check the owner and repository name, and that the token's repository access (or the GitHub App installation) includes it.`,
    );
  }
  if (status === 409 || (status === 422 && /fast.forward/i.test(message))) {
    return make(
      'conflict',
      false,
      `${message}. The branch changed underneath; read it again and retry.`,
    );
  }
  if (status >= 500) {
    return make(
      'unavailable',
      true,
      `GitHub answered ${status} (${message}). Nothing to fix on this side unless it persists; see https://www.githubstatus.com.`,
    );
  }
  return make('validation_failed', false, `GitHub refused the request (${status}: ${message}).`);
}
