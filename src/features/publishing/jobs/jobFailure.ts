import { SealedSecretError } from '../../../core/secretBox.ts';
import { isGitHubError } from '../../../integrations/github/errors.ts';
import { backoffMs } from './jobs.ts';

/** A job tries this many times (over about two hours with the backoff) before it gives up. */
export const MAX_JOB_ATTEMPTS = 8;

const MAX_REASON = 700;

export type FailureDecision =
  | { kind: 'retry'; afterMs: number; error: string }
  | { kind: 'give_up'; reason: string };

/**
 * Whether trying again can help: GitHub being down, slow or rate limiting (waiting as long as it
 * asked), or a branch that moved underneath, yes, up to MAX_JOB_ATTEMPTS; a refused credential,
 * a missing permission, repository or branch, or a request GitHub rejects, no: the user has to fix
 * something, and the reason says what.
 */
export function decideOnFailure(error: unknown, attempts: number, what: string): FailureDecision {
  const github = isGitHubError(error) ? error : null;
  const message = github ? github.reason : error instanceof Error ? error.message : String(error);
  // A stored credential that does not open stays so until it is saved again: no retry helps.
  const retryable = github
    ? github.retryable || github.code === 'conflict'
    : !(error instanceof SealedSecretError);
  const tried = attempts + 1;
  if (retryable && tried < MAX_JOB_ATTEMPTS) {
    return { kind: 'retry', afterMs: github?.retryAfterMs ?? backoffMs(tried), error: message };
  }
  const reason = `${what} failed${retryable ? ` after ${tried} attempts` : ''}: ${message.replace(/\s+$/, '')}`;
  return {
    kind: 'give_up',
    reason: reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason,
  };
}
