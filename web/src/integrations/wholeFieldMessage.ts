import type { RequestFailed } from '../api/appClient.ts';

/**
 * The server's message for `field` as a whole (`body.credentials`: "GitHub rejected the
 * credential"), not for a field inside it (`body.credentials.installationId`), which the form
 * shows on that inner field only.
 */
export function wholeFieldMessage(
  error: RequestFailed | null | undefined,
  field: string,
): string | undefined {
  return error?.error.details?.find(
    (detail) => detail.path === field || detail.path === `body.${field}`,
  )?.message;
}
