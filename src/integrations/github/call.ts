import type { Octokit } from '@octokit/rest';
import type { OperationContext } from './errors.ts';

/** Runs one GitHub operation with an authenticated client, retries and error mapping (octokit.ts). */
export type GitHubCall = <T>(
  context: OperationContext,
  run: (octokit: Octokit) => Promise<T>,
) => Promise<T>;
