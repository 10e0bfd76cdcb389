import type { Octokit } from '@octokit/rest';
import type { GitHubCall } from './call.ts';
import { createTokenSource, type GitHubCredentials, type TokenSource } from './credentials.ts';
import { classifyFailure, GitHubError, isGitHubError, type OperationContext } from './errors.ts';
import { createOctokitRepository } from './octokitRepository.ts';
import type { GitHubPort, RepoAccess, RepoRef } from './port.ts';
import {
  DEFAULT_RETRY_POLICY,
  realSleep,
  withRetries,
  type RetryPolicy,
  type Sleep,
} from './retry.ts';

/**
 * The GitHub port over @octokit/rest. Works against github.com or GitHub Enterprise Server
 * (`baseUrl: 'https://ghe.example.com/api/v3'`). No Octokit plugin retries or throttles: every
 * call goes through `withRetries` with the injected clock and sleep.
 */

export type OctokitGitHubOptions = {
  credentials: GitHubCredentials;
  /** Default `https://api.github.com`. */
  baseUrl?: string;
  nowMs?: () => number;
  sleep?: Sleep;
  retry?: Partial<RetryPolicy>;
  /** Per request; a request that takes longer counts as no answer (retryable). Default 30 s. */
  requestTimeoutMs?: number;
  userAgent?: string;
};

type ResponseLike = {
  status?: unknown;
  response?: { headers?: Record<string, string>; data?: unknown };
};

/** GitHub's `message` plus the messages of its `errors` list: "Validation Failed: A pull request already exists…". */
function messageOf(error: ResponseLike & { message?: string }): string {
  const data = error.response?.data as
    | {
        message?: string;
        errors?: ({ message?: string; code?: string; field?: string } | string)[];
      }
    | undefined;
  if (!data || typeof data !== 'object' || !data.message) return error.message ?? 'unknown error';
  const details = (data.errors ?? []).map((e) =>
    typeof e === 'string' ? e : (e.message ?? [e.field, e.code].filter(Boolean).join(' ')),
  );
  return details.length ? `${data.message}: ${details.join('; ')}` : data.message;
}

export function toGitHubError(
  caught: unknown,
  context: OperationContext,
  nowMs: number,
): GitHubError {
  if (isGitHubError(caught)) return caught;
  const error = caught as ResponseLike & { message?: string };
  if (typeof error?.status !== 'number') throw caught; // a programming error, not GitHub's answer
  const status = error.response ? error.status : 0;
  return classifyFailure(
    { status, headers: error.response?.headers ?? {}, message: messageOf(error) },
    context,
    nowMs,
    caught,
  );
}

const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

/** Loaded at the first GitHub call, not at start: a server that never publishes never holds it (docs/memory.md). */
const loadOctokit = async (): Promise<typeof Octokit> => (await import('@octokit/rest')).Octokit;

export function createOctokitGitHub(options: OctokitGitHubOptions): GitHubPort {
  const baseUrl = (options.baseUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  const nowMs = options.nowMs ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const userAgent = options.userAgent ?? 'inkstream';
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const newOctokit = async (auth?: string) => {
    const octokit = new (await loadOctokit())({ baseUrl, auth, userAgent, log: silentLog });
    octokit.hook.before('request', (request) => {
      request.request = { ...request.request, signal: AbortSignal.timeout(timeoutMs) };
    });
    return octokit;
  };
  let tokens: Promise<TokenSource> | undefined;
  const tokenSource = () =>
    (tokens ??= newOctokit().then((octokit) =>
      createTokenSource(options.credentials, octokit.request),
    ));
  const appContext: OperationContext = {
    operation: 'authenticate as the GitHub App installation',
    notFound:
      'the GitHub App installation was not found: check the installation id, and that the app is still installed.',
  };
  let client: { token: string; octokit: Octokit } | undefined;

  const retrying = <T>(context: OperationContext, attempt: () => Promise<T>) =>
    withRetries(
      context.operation,
      attempt,
      (e) => toGitHubError(e, context, nowMs()),
      policy,
      sleep,
    );

  async function authenticated(refresh: boolean): Promise<Octokit> {
    const source = await tokenSource();
    const token = await retrying(appContext, () => source.token({ refresh })).catch(
      (error: unknown) => {
        if (!isGitHubError(error) || error.code !== 'not_found') throw error;
        throw new GitHubError({
          code: 'installation_missing',
          status: 404,
          retryable: false,
          operation: appContext.operation,
          reason: error.reason,
          cause: error,
        });
      },
    );
    if (client?.token !== token) client = { token, octokit: await newOctokit(token) };
    return client.octokit;
  }

  const call: GitHubCall = async (context, run) => {
    try {
      const octokit = await authenticated(false);
      return await retrying(context, () => run(octokit));
    } catch (error) {
      // An installation token can be revoked before it expires: buy a new one, once.
      if (
        !isGitHubError(error) ||
        error.code !== 'token_invalid' ||
        !(await tokenSource()).refreshable
      )
        throw error;
      const octokit = await authenticated(true);
      return await retrying(context, () => run(octokit));
    }
  };

  return {
    validateAccess: (input) =>
      validateAccess(call, async () => (await tokenSource()).permissions(), input),
    repository: (ref) => createOctokitRepository(ref, call),
  };
}

async function validateAccess(
  call: GitHubCall,
  installationPermissions: () => Promise<Record<string, string> | null>,
  input: RepoRef & { baseBranch: string },
): Promise<RepoAccess> {
  const { owner, repo, baseBranch } = input;
  const repository = `${owner}/${repo}`;
  const { data } = await call(
    { operation: `read ${repository}`, repository, permission: 'metadata:read' },
    (o) => o.rest.repos.get({ owner, repo }),
  );
  const lacking = (permission: string, why: string) =>
    new GitHubError({
      code: 'missing_permission',
      status: 403,
      retryable: false,
      operation: `publish to ${repository}`,
      reason: `${why} Grant ${permission} on ${repository} (fine-grained token: Repository permissions; GitHub App: its permissions and installation).`,
    });
  if (data.archived) {
    throw new GitHubError({
      code: 'missing_permission',
      status: 403,
      retryable: false,
      operation: `publish to ${repository}`,
      reason: `${repository} is archived and read-only. Unarchive it in its settings.`,
    });
  }
  if (data.permissions && !data.permissions.push)
    throw lacking('contents:write', 'the credential can read but not write this repository.');
  const granted = await installationPermissions();
  if (granted && granted.contents !== 'write')
    throw lacking(
      'contents:write',
      'the GitHub App installation cannot write repository contents.',
    );
  if (granted && granted.pull_requests !== 'write')
    throw lacking('pull_requests:write', 'the GitHub App installation cannot open pull requests.');
  const branch = await call(
    {
      operation: `read branch ${baseBranch} of ${repository}`,
      repository,
      permission: 'contents:read',
      notFound: `the base branch "${baseBranch}" does not exist in ${repository} (its default branch is "${data.default_branch}").`,
    },
    (o) => o.rest.repos.getBranch({ owner, repo, branch: baseBranch }),
  ).catch((error: unknown) => {
    if (!isGitHubError(error) || error.code !== 'not_found') throw error;
    throw new GitHubError({
      code: 'branch_missing',
      status: 404,
      retryable: false,
      operation: `publish to ${repository}`,
      reason: error.reason,
      cause: error,
    });
  });
  return { defaultBranch: data.default_branch, canPush: !branch.data.protected };
}
