import type { DateRange } from '../../core/dateRange.ts';

/** How Inkstream talks to Google Search Console: one port, the googleapis adapter beside it. */

/** OAuth (a refresh token granted by a Google account that is a user of the property) or a service account key. */
export type SearchCredentials =
  | { type: 'oauth'; clientId: string; clientSecret: string; refreshToken: string }
  | { type: 'service_account'; clientEmail: string; privateKey: string };

export type SearchTotals = { clicks: number; impressions: number; ctr: number; position: number };

/** One row of a searchanalytics.query answer: the values of the requested dimensions, in order, and the totals. */
export type SearchRow = SearchTotals & { keys: string[] };

export type SiteAccess = { siteUrl: string; permissionLevel: string };

export type SearchQuery = {
  range: DateRange;
  dimensions: ReadonlyArray<'page' | 'query' | 'date'>;
  /** Only rows of this page (an exact URL). */
  page?: string;
  rowLimit: number;
  startRow?: number;
};

export interface SearchConsolePort {
  /** Exchanges the credentials for an access token: the OAuth refresh, or the service account's JWT grant. */
  authorize(): Promise<void>;
  /** sites.get: the caller's permission on the property. */
  site(property: string): Promise<SiteAccess>;
  /** sites.list: every property the credentials can see (to suggest the right property string). */
  sites(): Promise<SiteAccess[]>;
  /** searchanalytics.query, one page of rows. */
  query(property: string, query: SearchQuery): Promise<SearchRow[]>;
}

export type SearchErrorKind =
  | 'invalid_grant'
  | 'invalid_client'
  | 'insufficient_scope'
  | 'permission_denied'
  | 'not_found'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'bad_request';

const RETRYABLE: Record<SearchErrorKind, boolean> = {
  invalid_grant: false,
  invalid_client: false,
  insufficient_scope: false,
  permission_denied: false,
  not_found: false,
  rate_limited: true,
  server: true,
  network: true,
  bad_request: false,
};

/**
 * Everything that can go wrong with a Search Console call. `detail` is Google's own wording (safe
 * to show: it names no secret); callers turn the kind into a message saying what to fix.
 */
export class SearchAnalyticsError extends Error {
  readonly kind: SearchErrorKind;
  readonly retryable: boolean;
  readonly status: number | null;
  readonly detail: string;
  readonly retryAfterMs: number | null;

  constructor(
    kind: SearchErrorKind,
    detail: string,
    options: { status?: number | null; retryAfterMs?: number | null; cause?: unknown } = {},
  ) {
    super(`${kind}: ${detail}`, { cause: options.cause });
    this.name = 'SearchAnalyticsError';
    this.kind = kind;
    this.retryable = RETRYABLE[kind];
    this.status = options.status ?? null;
    this.detail = detail;
    this.retryAfterMs = options.retryAfterMs ?? null;
  }
}

export const isSearchAnalyticsError = (error: unknown): error is SearchAnalyticsError =>
  error instanceof SearchAnalyticsError;

/** The kinds that only new credentials or a change in Search Console can fix: retrying cannot. */
export const needsNewCredentials = (error: SearchAnalyticsError): boolean =>
  [
    'invalid_grant',
    'invalid_client',
    'insufficient_scope',
    'permission_denied',
    'not_found',
  ].includes(error.kind);

export const SEARCH_CONSOLE_SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';
