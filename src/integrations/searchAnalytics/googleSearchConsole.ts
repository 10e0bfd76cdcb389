import type * as Google from '@googleapis/searchconsole';
import { toSearchAnalyticsError } from './errors.ts';
import {
  SEARCH_CONSOLE_SCOPE,
  type SearchConsolePort,
  type SearchCredentials,
  type SearchQuery,
  type SearchRow,
} from './port.ts';

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

type Transporter = {
  interceptors: {
    request: {
      add(interceptor: { resolved(config: RequestConfig): Promise<RequestConfig> }): void;
    };
  };
};
type RequestConfig = { url?: unknown; retry?: boolean; retryConfig?: { retry?: number } };

function authClient({ auth }: typeof Google, options: GoogleSearchConsoleOptions) {
  const transporterOptions = { timeout: options.timeoutMs ?? 30_000 };
  const { credentials } = options;
  if (credentials.type === 'oauth') {
    const client = new auth.OAuth2({
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      endpoints: { oauth2TokenUrl: options.tokenUrl },
      transporterOptions,
    });
    client.setCredentials({ refresh_token: credentials.refreshToken });
    return client;
  }
  // Scopes make JWT use the token exchange (the JWT bearer grant) instead of a self-signed token.
  return new auth.JWT({
    email: credentials.clientEmail,
    key: credentials.privateKey,
    scopes: [SEARCH_CONSOLE_SCOPE],
    transporterOptions,
  });
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

const toRow = (row: {
  keys?: string[] | null;
  clicks?: number | null;
  impressions?: number | null;
  ctr?: number | null;
  position?: number | null;
}): SearchRow => ({
  keys: row.keys ?? [],
  clicks: row.clicks ?? 0,
  impressions: row.impressions ?? 0,
  ctr: row.ctr ?? 0,
  position: row.position ?? 0,
});

/** The port over the official client (@googleapis/searchconsole with google-auth-library's OAuth2/JWT clients). */
export function createGoogleSearchConsole(options: GoogleSearchConsoleOptions): SearchConsolePort {
  // The client library (~25 MB resident) is loaded by the first call, not by every server's start.
  const connect = async () => {
    const google = await import('@googleapis/searchconsole');
    const client = authClient(google, options);
    routeRequests(client.transporter as unknown as Transporter, options.tokenUrl);
    const api = google.searchconsole({
      version: 'v1',
      auth: client,
      rootUrl: options.rootUrl,
      retry: false,
      timeout: options.timeoutMs ?? 30_000,
    });
    return { client, api };
  };
  let connected: ReturnType<typeof connect> | null = null;
  const call = async <T>(
    request: (google: Awaited<ReturnType<typeof connect>>) => Promise<T>,
  ): Promise<T> => {
    try {
      return await request(await (connected ??= connect()));
    } catch (error) {
      throw toSearchAnalyticsError(error);
    }
  };
  return {
    authorize: () =>
      call(async ({ client }) => {
        await client.getAccessToken();
      }),
    site: (property) =>
      call(async ({ api }) => {
        const { data } = await api.sites.get({ siteUrl: property });
        return {
          siteUrl: data.siteUrl ?? property,
          permissionLevel: data.permissionLevel ?? 'siteUnverifiedUser',
        };
      }),
    sites: () =>
      call(async ({ api }) => {
        const { data } = await api.sites.list();
        return (data.siteEntry ?? []).map((entry) => ({
          siteUrl: entry.siteUrl ?? '',
          permissionLevel: entry.permissionLevel ?? '',
        }));
      }),
    query: (property, query: SearchQuery) =>
      call(async ({ api }) => {
        const { data } = await api.searchanalytics.query({
          siteUrl: property,
          requestBody: {
            startDate: query.range.start,
            endDate: query.range.end,
            type: 'web',
            dimensions: [...query.dimensions],
            ...(query.page
              ? {
                  dimensionFilterGroups: [
                    {
                      groupType: 'and',
                      filters: [{ dimension: 'page', operator: 'equals', expression: query.page }],
                    },
                  ],
                }
              : {}),
            rowLimit: query.rowLimit,
            startRow: query.startRow ?? 0,
          },
        });
        return (data.rows ?? []).map(toRow);
      }),
  };
}
