import { auth, searchconsole } from '@googleapis/searchconsole';
import { toSearchAnalyticsError } from './errors.ts';
import { SEARCH_CONSOLE_SCOPE, type SearchConsolePort, type SearchCredentials, type SearchQuery, type SearchRow } from './port.ts';

/** Where google-auth-library's service-account grant (gtoken) always posts, whatever the client's endpoints say. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export type GoogleSearchConsoleOptions = {
  credentials: SearchCredentials;
  /** The Search Console API's root, e.g. https://searchconsole.googleapis.com/ (only its origin is used by the client). */
  rootUrl: string;
  /** Google's OAuth 2.0 token endpoint. */
  tokenUrl: string;
  timeoutMs?: number;
};

type Transporter = { interceptors: { request: { add(interceptor: { resolved(config: RequestConfig): Promise<RequestConfig> }): void } } };
type RequestConfig = { url?: unknown; retry?: boolean; retryConfig?: { retry?: number } };

function authClient(options: GoogleSearchConsoleOptions) {
  const transporterOptions = { timeout: options.timeoutMs ?? 30_000 };
  const { credentials } = options;
  if (credentials.type === 'oauth') {
    const client = new auth.OAuth2({
      clientId: credentials.clientId, clientSecret: credentials.clientSecret,
      endpoints: { oauth2TokenUrl: options.tokenUrl }, transporterOptions,
    });
    client.setCredentials({ refresh_token: credentials.refreshToken });
    return client;
  }
  // Scopes make JWT use the token exchange (the JWT bearer grant) instead of a self-signed token.
  return new auth.JWT({ email: credentials.clientEmail, key: credentials.privateKey, scopes: [SEARCH_CONSOLE_SCOPE], transporterOptions });
}

/**
 * Every request of one client passes here before it is sent: the service-account grant is sent to
 * the configured token endpoint (its JWT's audience stays Google's, as Google checks it), and
 * gaxios's own retries are turned off, so retries, their backoff and their count are the caller's.
 */
function routeRequests(transporter: Transporter, tokenUrl: string): void {
  transporter.interceptors.request.add({
    async resolved(config) {
      if (String(config.url) === GOOGLE_TOKEN_URL) config.url = new URL(tokenUrl);
      config.retry = false;
      config.retryConfig = { ...config.retryConfig, retry: 0 };
      return config;
    },
  });
}

const toRow = (row: { keys?: string[] | null; clicks?: number | null; impressions?: number | null; ctr?: number | null; position?: number | null }): SearchRow => ({
  keys: row.keys ?? [], clicks: row.clicks ?? 0, impressions: row.impressions ?? 0, ctr: row.ctr ?? 0, position: row.position ?? 0,
});

/** The port over the official client (@googleapis/searchconsole with google-auth-library's OAuth2/JWT clients). */
export function createGoogleSearchConsole(options: GoogleSearchConsoleOptions): SearchConsolePort {
  const client = authClient(options);
  routeRequests(client.transporter as unknown as Transporter, options.tokenUrl);
  const api = searchconsole({ version: 'v1', auth: client, rootUrl: options.rootUrl, retry: false, timeout: options.timeoutMs ?? 30_000 });
  const call = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      throw toSearchAnalyticsError(error);
    }
  };
  return {
    authorize: () => call(async () => { await client.getAccessToken(); }),
    site: (property) => call(async () => {
      const { data } = await api.sites.get({ siteUrl: property });
      return { siteUrl: data.siteUrl ?? property, permissionLevel: data.permissionLevel ?? 'siteUnverifiedUser' };
    }),
    sites: () => call(async () => {
      const { data } = await api.sites.list();
      return (data.siteEntry ?? []).map((entry) => ({ siteUrl: entry.siteUrl ?? '', permissionLevel: entry.permissionLevel ?? '' }));
    }),
    query: (property, query: SearchQuery) => call(async () => {
      const { data } = await api.searchanalytics.query({
        siteUrl: property,
        requestBody: {
          startDate: query.range.start, endDate: query.range.end, type: 'web', dimensions: [...query.dimensions],
          ...(query.page ? { dimensionFilterGroups: [{ groupType: 'and', filters: [{ dimension: 'page', operator: 'equals', expression: query.page }] }] } : {}),
          rowLimit: query.rowLimit, startRow: query.startRow ?? 0,
        },
      });
      return (data.rows ?? []).map(toRow);
    }),
  };
}
