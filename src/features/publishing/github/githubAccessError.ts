import { AppError } from '../../../core/errors.ts';
import { isGitHubError, type GitHubError } from '../../../integrations/github/errors.ts';

/** Which field of PUT …/integrations/github a refusal from GitHub is about. */
const FIELD_BY_CODE: Partial<Record<GitHubError['code'], string>> = {
  token_invalid: 'body.credentials',
  missing_permission: 'body.credentials',
  not_found: 'body.repository',
  installation_missing: 'body.credentials.installationId',
  branch_missing: 'body.baseBranch',
};

/**
 * GitHub's answer to the validation on save, as the caller's error: a refusal is a 400 naming the
 * field to fix; GitHub being down or rate limited is a 503 (nothing is saved either way).
 */
export function accessRefused(error: unknown, repository: string): AppError {
  if (!isGitHubError(error)) throw error;
  if (error.retryable) {
    const wait = error.retryAfterMs
      ? ` in ${Math.ceil(error.retryAfterMs / 1000)} s`
      : ' in a minute';
    return new AppError(
      'unavailable',
      `GitHub could not be asked about ${repository} (${error.reason}). Nothing was saved; send the request again${wait}.`,
      { cause: error },
    );
  }
  const path = FIELD_BY_CODE[error.code] ?? 'body';
  const message = `GitHub refused access to ${repository}: ${error.reason}`;
  return new AppError('validation_failed', message, {
    cause: error,
    details: [{ path, message: error.reason }],
  });
}
