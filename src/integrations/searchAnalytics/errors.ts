import { SearchAnalyticsError, type SearchErrorKind } from './port.ts';

/**
 * Google's answers as SearchAnalyticsErrors. The token endpoint answers in the OAuth 2.0 shape
 * (`{ error: "invalid_grant", error_description }`), the API in Google's JSON error shape
 * (`{ error: { code, message, status, errors: [{ reason }] } }`); gaxios keeps either on `response.data`.
 */

type ErrorLike = {
  message?: string;
  code?: string | number;
  name?: string;
  response?: { status?: number; data?: unknown; headers?: { get?(name: string): string | null } };
  cause?: unknown;
};

const QUOTA_REASONS = new Set([
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'dailyLimitExceeded',
  'RATE_LIMIT_EXCEEDED',
]);
const SCOPE_REASONS = new Set(['ACCESS_TOKEN_SCOPE_INSUFFICIENT', 'insufficientPermissions']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function retryAfterMs(error: ErrorLike): number | null {
  const header = error.response?.headers?.get?.('retry-after');
  return header && /^\d+$/.test(header.trim()) ? Number(header.trim()) * 1000 : null;
}

function oauthKind(code: string, status: number): SearchErrorKind {
  if (code === 'invalid_grant') return 'invalid_grant';
  if (code === 'invalid_client' || code === 'unauthorized_client') return 'invalid_client';
  if (code === 'invalid_scope') return 'insufficient_scope';
  if (status === 429) return 'rate_limited';
  return status >= 500 ? 'server' : 'bad_request';
}

type ApiError = {
  message?: string;
  status?: string;
  errors?: { reason?: string }[];
  details?: { reason?: string }[];
};

function apiKind(body: ApiError, status: number): SearchErrorKind {
  const reasons = new Set(
    [...(body.errors ?? []), ...(body.details ?? [])].map((entry) => entry.reason ?? ''),
  );
  if (
    status === 429 ||
    body.status === 'RESOURCE_EXHAUSTED' ||
    [...reasons].some((reason) => QUOTA_REASONS.has(reason))
  )
    return 'rate_limited';
  if (status === 401) return 'invalid_grant';
  if (status === 403) {
    const scope =
      [...reasons].some((reason) => SCOPE_REASONS.has(reason)) ||
      /insufficient authentication scopes/i.test(body.message ?? '');
    return scope ? 'insufficient_scope' : 'permission_denied';
  }
  if (status === 404) return 'not_found';
  return status >= 500 ? 'server' : 'bad_request';
}

function networkCode(error: ErrorLike): string | null {
  for (
    let current: unknown = error, depth = 0;
    current && depth < 4;
    current = (current as ErrorLike).cause, depth++
  ) {
    const { code, name } = current as ErrorLike;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    if (name === 'AbortError' || name === 'TimeoutError') return 'timeout';
  }
  return null;
}

export function toSearchAnalyticsError(caught: unknown): SearchAnalyticsError {
  if (caught instanceof SearchAnalyticsError) return caught;
  const error = (caught ?? {}) as ErrorLike;
  const status = error.response?.status;
  const data = error.response?.data as { error?: unknown; error_description?: string } | undefined;
  if (status !== undefined && data && typeof data.error === 'string') {
    const detail = data.error_description ? `${data.error}: ${data.error_description}` : data.error;
    return new SearchAnalyticsError(oauthKind(data.error, status), detail, {
      status,
      retryAfterMs: retryAfterMs(error),
      cause: caught,
    });
  }
  if (status !== undefined) {
    const body = (data && typeof data.error === 'object' ? data.error : {}) as ApiError;
    const detail = body.message ?? `HTTP ${status}`;
    return new SearchAnalyticsError(apiKind(body, status), detail, {
      status,
      retryAfterMs: retryAfterMs(error),
      cause: caught,
    });
  }
  const code = networkCode(error);
  if (code)
    return new SearchAnalyticsError('network', `Google could not be reached (${code})`, {
      cause: caught,
    });
  return new SearchAnalyticsError('bad_request', error.message ?? String(caught), {
    cause: caught,
  });
}
