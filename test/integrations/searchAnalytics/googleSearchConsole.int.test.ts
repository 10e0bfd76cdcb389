import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGoogleSearchConsole } from '../../../src/integrations/searchAnalytics/googleSearchConsole.ts';
import {
  SearchAnalyticsError,
  type SearchCredentials,
} from '../../../src/integrations/searchAnalytics/port.ts';
import { withRetries } from '../../../src/integrations/searchAnalytics/retry.ts';
import {
  GOOGLE_TOKEN_AUDIENCE,
  googleError,
  startFakeSearchConsole,
  type FakeSearchConsole,
} from '../../support/fakeSearchConsole.ts';

const DOMAIN = 'sc-domain:crumb.example';
const PREFIX = 'https://crumb.example/';
const PAGE = 'https://crumb.example/blog/sourdough';
const OWNER = 'owner@crumb.example';

let google: FakeSearchConsole;
let serviceAccount: { clientEmail: string; privateKey: string };
const oauth: SearchCredentials = {
  type: 'oauth',
  clientId: 'client-1.apps.googleusercontent.com',
  clientSecret: 'secret-1',
  refreshToken: '1//refresh-owner',
};

beforeAll(async () => {
  google = await startFakeSearchConsole();
  google.addOAuthClient(oauth.clientId, oauth.clientSecret);
  google.addRefreshToken(oauth.refreshToken, { clientId: oauth.clientId, user: OWNER });
  google.addRefreshToken('1//no-scope', {
    clientId: oauth.clientId,
    user: OWNER,
    scopes: ['openid', 'email'],
  });
  serviceAccount = google.addServiceAccount('inkstream@crumb-project.iam.gserviceaccount.com');
  google.addProperty(DOMAIN, {
    [OWNER]: 'siteOwner',
    [serviceAccount.clientEmail]: 'siteRestrictedUser',
  });
  google.addProperty(PREFIX, { [OWNER]: 'siteFullUser' });
  google.addRows(DOMAIN, [
    {
      date: '2026-01-10',
      page: PAGE,
      query: 'sourdough starter',
      clicks: 6,
      impressions: 100,
      position: 4,
    },
    {
      date: '2026-01-11',
      page: PAGE,
      query: 'sourdough starter',
      clicks: 4,
      impressions: 100,
      position: 6,
    },
    { date: '2026-01-11', page: PAGE, query: 'levain', clicks: 1, impressions: 50, position: 9 },
    { date: '2026-02-20', page: PAGE, query: 'levain', clicks: 99, impressions: 99, position: 1 },
  ]);
});
afterAll(() => google.close());

const port = (credentials: SearchCredentials) =>
  createGoogleSearchConsole({ credentials, rootUrl: google.rootUrl, tokenUrl: google.tokenUrl });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as SearchAnalyticsError,
  );

test('OAuth: the refresh token is exchanged at the configured token URL and the property string is sent path-encoded', async () => {
  const client = port(oauth);
  await client.authorize();
  expect(await client.site(DOMAIN)).toEqual({ siteUrl: DOMAIN, permissionLevel: 'siteOwner' });
  expect(google.calls.at(-1)).toMatchObject({
    kind: 'site',
    path: '/webmasters/v3/sites/sc-domain%3Acrumb.example',
    principal: OWNER,
  });
  expect(await client.site(PREFIX)).toEqual({ siteUrl: PREFIX, permissionLevel: 'siteFullUser' });
  expect(google.calls.at(-1)!.path).toBe('/webmasters/v3/sites/https%3A%2F%2Fcrumb.example%2F');
  const token = google.callsOf('token')[0];
  expect(token.body).toMatchObject({
    grant_type: 'refresh_token',
    client_id: oauth.clientId,
    refresh_token: oauth.refreshToken,
  });
});

test('searchanalytics.query: the date range, dimensions and page filter go over the wire; rows come back aggregated', async () => {
  const client = port(oauth);
  const pages = await client.query(DOMAIN, {
    range: { start: '2026-01-01', end: '2026-01-31' },
    dimensions: ['page'],
    rowLimit: 25_000,
  });
  expect(pages).toEqual([
    {
      keys: [PAGE],
      clicks: 11,
      impressions: 250,
      ctr: 11 / 250,
      position: (400 + 600 + 450) / 250,
    },
  ]);
  const queries = await client.query(DOMAIN, {
    range: { start: '2026-01-01', end: '2026-01-31' },
    dimensions: ['query'],
    page: PAGE,
    rowLimit: 10,
  });
  expect(queries.map((row) => row.keys[0])).toEqual(['sourdough starter', 'levain']);
  expect(google.calls.at(-1)!.body).toEqual({
    startDate: '2026-01-01',
    endDate: '2026-01-31',
    type: 'web',
    dimensions: ['query'],
    rowLimit: 10,
    startRow: 0,
    dimensionFilterGroups: [
      { groupType: 'and', filters: [{ dimension: 'page', operator: 'equals', expression: PAGE }] },
    ],
  });
});

test('service account: the JWT bearer grant is signed with the key, addressed to Google, and sent to the configured token URL', async () => {
  const client = port({ type: 'service_account', ...serviceAccount });
  expect(await client.site(DOMAIN)).toEqual({
    siteUrl: DOMAIN,
    permissionLevel: 'siteRestrictedUser',
  });
  const grant = google.callsOf('token').at(-1)!;
  expect(grant.body.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
  const claims = JSON.parse(
    Buffer.from(grant.body.assertion.split('.')[1], 'base64url').toString('utf8'),
  );
  expect(claims).toMatchObject({
    iss: serviceAccount.clientEmail,
    aud: GOOGLE_TOKEN_AUDIENCE,
    scope: 'https://www.googleapis.com/auth/webmasters.readonly',
  });
  expect((await failure(client.site(PREFIX))).kind).toBe('permission_denied');

  const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const wrongKey = await failure(
    port({
      type: 'service_account',
      clientEmail: serviceAccount.clientEmail,
      privateKey: otherKey,
    }).authorize(),
  );
  expect(wrongKey).toMatchObject({
    kind: 'invalid_grant',
    detail: 'invalid_grant: Invalid JWT Signature.',
    retryable: false,
  });
});

test('refusals are told apart: invalid grant, unknown client, missing scope, no permission on the property', async () => {
  expect(await failure(port({ ...oauth, refreshToken: '1//revoked' }).authorize())).toMatchObject({
    kind: 'invalid_grant',
    status: 400,
    detail: 'invalid_grant: Token has been expired or revoked.',
  });
  expect(await failure(port({ ...oauth, clientSecret: 'wrong' }).authorize())).toMatchObject({
    kind: 'invalid_client',
    status: 401,
  });
  expect(await failure(port({ ...oauth, refreshToken: '1//no-scope' }).site(DOMAIN))).toMatchObject(
    { kind: 'insufficient_scope', status: 403 },
  );
  const denied = await failure(port(oauth).site('sc-domain:other.example'));
  expect(denied).toMatchObject({ kind: 'permission_denied', status: 403, retryable: false });
  expect(denied.detail).toContain(
    "User does not have sufficient permission for site 'sc-domain:other.example'",
  );
});

test('quota and 5xx answers are retryable and reach the caller after one request: the library does not retry on its own', async () => {
  const client = port(oauth);
  await client.authorize();
  const before = google.callsOf('query').length;
  google.failNext('query', googleError.rateLimited({ 'retry-after': '7' }));
  expect(
    await failure(
      client.query(DOMAIN, {
        range: { start: '2026-01-01', end: '2026-01-31' },
        dimensions: ['page'],
        rowLimit: 10,
      }),
    ),
  ).toMatchObject({ kind: 'rate_limited', retryable: true, retryAfterMs: 7000 });
  google.failNext('query', googleError.quota403());
  expect(
    (
      await failure(
        client.query(DOMAIN, {
          range: { start: '2026-01-01', end: '2026-01-31' },
          dimensions: ['page'],
          rowLimit: 10,
        }),
      )
    ).kind,
  ).toBe('rate_limited');
  google.failNext('query', googleError.serverError(503));
  expect(
    (
      await failure(
        client.query(DOMAIN, {
          range: { start: '2026-01-01', end: '2026-01-31' },
          dimensions: ['page'],
          rowLimit: 10,
        }),
      )
    ).kind,
  ).toBe('server');
  expect(google.callsOf('query').length - before).toBe(3);
  google.failNext('token', googleError.tokenServerError());
  expect((await failure(port(oauth).authorize())).kind).toBe('server');
});

test('withRetries waits out quota and 5xx answers, and gives up after its schedule', async () => {
  const client = port(oauth);
  const range = { start: '2026-01-01', end: '2026-01-31' };
  const before = google.callsOf('query').length;
  google.failNext('query', googleError.rateLimited(), googleError.serverError());
  const retries: number[] = [];
  const rows = await withRetries(
    () => client.query(DOMAIN, { range, dimensions: ['page'], rowLimit: 10 }),
    { delaysMs: [1, 1], onRetry: (_e, attempt) => retries.push(attempt) },
  );
  expect(rows).toHaveLength(1);
  expect(retries).toEqual([1, 2]);
  expect(google.callsOf('query').length - before).toBe(3);

  google.failNext(
    'query',
    googleError.serverError(),
    googleError.serverError(),
    googleError.serverError(),
  );
  expect(
    (
      await failure(
        withRetries(() => client.query(DOMAIN, { range, dimensions: ['page'], rowLimit: 10 }), {
          delaysMs: [1, 1],
        }),
      )
    ).kind,
  ).toBe('server');
  const denied = port({ ...oauth, refreshToken: '1//revoked' });
  const tokenCalls = google.callsOf('token').length;
  expect((await failure(withRetries(() => denied.authorize(), { delaysMs: [1, 1, 1] }))).kind).toBe(
    'invalid_grant',
  );
  expect(google.callsOf('token').length - tokenCalls).toBe(1);
});
