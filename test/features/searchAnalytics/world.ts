import { expect } from 'vitest';
import { startInkstream, type ApiClient, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';
import { startFakeSearchConsole, type FakeSearchConsole } from '../../support/fakeSearchConsole.ts';

/**
 * Google as the search-analytics tests see it: an OAuth client with a refresh token granted by
 * the owner of `sc-domain:crumb.example`, a stranger's token, and a service account that is (or
 * is not yet) a user of the property. Retries wait milliseconds, not seconds.
 */
export const PROPERTY = 'sc-domain:crumb.example';
export const URL_PATTERN = 'https://crumb.example/blog/{slug}';
export const OWNER = 'owner@crumb.example';
export const OAUTH = {
  type: 'oauth',
  clientId: '1234-crumb.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-crumb-secret',
  refreshToken: '1//0g-owner-refresh-token',
} as const;
export const RETRY_DELAYS_MS = '5,5,5';

export type Google = FakeSearchConsole & {
  serviceAccount: { clientEmail: string; privateKey: string };
};

export async function startGoogle(options: { nowMs?: () => number } = {}): Promise<Google> {
  const google = await startFakeSearchConsole(options);
  google.addOAuthClient(OAUTH.clientId, OAUTH.clientSecret);
  google.addRefreshToken(OAUTH.refreshToken, { clientId: OAUTH.clientId, user: OWNER });
  google.addRefreshToken('1//0g-stranger', {
    clientId: OAUTH.clientId,
    user: 'stranger@gmail.com',
  });
  const serviceAccount = google.addServiceAccount(
    'inkstream-sync@crumb-analytics.iam.gserviceaccount.com',
  );
  google.addProperty(PROPERTY, { [OWNER]: 'siteOwner' });
  return Object.assign(google, { serviceAccount });
}

export const googleEnv = (google: Google) => ({
  ...google.env(),
  INKSTREAM_SEARCH_RETRY_DELAYS_MS: RETRY_DELAYS_MS,
});

/** Google, a server that talks to it (its pipeline stopped) and the Crumb project. */
export async function startGoogleAndProject(): Promise<{
  google: Google;
  app: TestInkstream;
  projectId: string;
  close(): Promise<void>;
}> {
  const google = await startGoogle();
  const app = await startInkstream({ env: googleEnv(google) });
  await stopPipeline(app);
  const projectId = (
    await app.api().post('/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' })
  ).body.project.id;
  return {
    google,
    app,
    projectId,
    async close() {
      await app.close();
      await google.close();
    },
  };
}

export function connectBody(overrides: Record<string, unknown> = {}) {
  return {
    provider: 'google-search-console',
    property: PROPERTY,
    urlPattern: URL_PATTERN,
    credentials: OAUTH,
    ...overrides,
  };
}

export const integrationPath = (projectId: string) =>
  `/projects/${projectId}/integrations/search-analytics`;

/** The connection once its current sync is no longer running. */
export async function settledSync(
  api: ApiClient,
  projectId: string,
  eventually: <T>(
    read: () => Promise<T>,
    done: (value: T) => boolean,
    options?: { what?: string },
  ) => Promise<T>,
) {
  const connection = await eventually(
    async () => (await api.get(integrationPath(projectId))).body.searchAnalytics,
    (value: any) => value?.lastSync && value.lastSync.status !== 'running',
    { what: 'the sync to finish' },
  );
  expect(connection.lastSync.status).not.toBe('running');
  return connection;
}
