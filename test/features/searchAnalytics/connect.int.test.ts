import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { googleError } from '../../support/fakeSearchConsole.ts';
import type { TestInkstream } from '../../support/inkstream.ts';
import {
  connectBody,
  integrationPath,
  OAUTH,
  PROPERTY,
  settledSync,
  startGoogleAndProject,
  type Google,
} from './world.ts';

let google: Google;
let app: TestInkstream;
let projectId: string;

let world: Awaited<ReturnType<typeof startGoogleAndProject>>;

beforeAll(async () => {
  world = await startGoogleAndProject();
  ({ google, app, projectId } = world);
});
afterAll(() => world.close());

const put = (body: Record<string, unknown>, key?: string) =>
  app.api(key).put(integrationPath(projectId), body);

async function logText(): Promise<string> {
  const events = await app.platform.eventStore.readAll({ maxCount: 100_000 });
  return JSON.stringify(events, (_key, value) =>
    typeof value === 'bigint' ? String(value) : value,
  );
}

test('a plan without search analytics gets 402 naming the feature and the plans that include it, and Google is not asked', async () => {
  const free = app.api(await app.newKey('bakery-on-free', 'free'));
  const own = (
    await free.post('/projects', { name: 'Free bakery', websiteUrl: 'https://crumb.example' })
  ).body.project.id;
  const calls = google.calls.length;
  const refused = await free.put(integrationPath(own), connectBody());
  expect(refused.status).toBe(402);
  expect(refused.body.error).toMatchObject({
    code: 'payment_required',
    message: expect.stringContaining('search analytics; the pro and unlimited plans include it'),
  });
  expect(refused.body.error.details).toEqual([
    { path: 'plan', message: 'pro' },
    { path: 'plan', message: 'unlimited' },
  ]);
  expect((await free.post(`${integrationPath(own)}/sync`)).status).toBe(402);
  expect(google.calls.length).toBe(calls);
});

test("Google's refusals on save answer 400 naming the field and saying what to fix; nothing is saved", async () => {
  const revoked = await put(
    connectBody({ credentials: { ...OAUTH, refreshToken: '1//0g-revoked' } }),
  );
  expect(revoked.status).toBe(400);
  expect(revoked.body.error.details).toEqual([
    expect.objectContaining({ path: 'body.credentials.refreshToken' }),
  ]);
  expect(revoked.body.error.message).toMatch(
    /^Google refused the refresh token \(invalid_grant: Token has been expired or revoked\.\).*Re-authorise: grant the scope https:\/\/www\.googleapis\.com\/auth\/webmasters\.readonly/,
  );

  const wrongSecret = await put(
    connectBody({ credentials: { ...OAUTH, clientSecret: 'GOCSPX-wrong' } }),
  );
  expect(wrongSecret.body.error.details[0].path).toBe('body.credentials.clientId');
  expect(wrongSecret.body.error.message).toContain('invalid_client');

  const stranger = await put(
    connectBody({ credentials: { ...OAUTH, refreshToken: '1//0g-stranger' } }),
  );
  expect(stranger.status).toBe(400);
  expect(stranger.body.error.details[0].path).toBe('body.property');
  expect(stranger.body.error.message).toContain(
    "User does not have sufficient permission for site 'sc-domain:crumb.example'",
  );
  expect(stranger.body.error.message).toContain(
    'Add the Google account that granted the refresh token as a user of the property',
  );

  const email = google.serviceAccount.clientEmail;
  const serviceAccount = await put(
    connectBody({ credentials: { type: 'service_account', ...google.serviceAccount } }),
  );
  expect(serviceAccount.status).toBe(400);
  expect(serviceAccount.body.error.message).toContain(
    `Search Console refused the service account ${email} access to ${PROPERTY}`,
  );
  expect(serviceAccount.body.error.message).toContain(
    `Add ${email} as a user: in Search Console open the property, Settings → Users and permissions → Add user`,
  );
  expect(serviceAccount.body.error.message).toContain(
    'being a member of the Google Cloud project is not enough',
  );

  // The owner's credentials with the URL-prefix form of a Domain property: refused, and the right string is offered.
  const prefix = await put(connectBody({ property: 'https://crumb.example' }));
  expect(prefix.status).toBe(400);
  expect(prefix.body.error.message).toContain('refused access to https://crumb.example/');
  expect(prefix.body.error.message).toContain(
    'These credentials can see "sc-domain:crumb.example"',
  );

  const outside = await put(connectBody({ urlPattern: 'https://elsewhere.example/blog/{slug}' }));
  expect(outside.body.error.details[0]).toEqual({
    path: 'body.urlPattern',
    message: expect.stringContaining(
      'https://elsewhere.example/blog/your-article-slug, which Search Console does not report under sc-domain:crumb.example',
    ),
  });
  // With no pattern given, the articles' URLs are the project's site: the property is the field to fix.
  const otherSite = await put(
    connectBody({ property: 'sc-domain:elsewhere.example', urlPattern: undefined }),
  );
  expect(otherSite.status).toBe(400);
  expect(otherSite.body.error.details).toEqual([
    {
      path: 'body.property',
      message: expect.stringContaining(
        'which Search Console does not report under sc-domain:elsewhere.example',
      ),
    },
  ]);

  google.failNext('token', googleError.tokenServerError());
  const down = await put(connectBody());
  expect(down.status).toBe(503);
  expect(down.body.error.message).toMatch(/Nothing was saved; send the request again/);

  const malformed = await put(
    connectBody({
      property: 'crumb.example',
      urlPattern: '{siteUrl}/blog/{id}',
      credentials: { type: 'service_account', clientEmail: email, privateKey: 'not a key' },
    }),
  );
  expect(malformed.status).toBe(400);
  expect(malformed.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
    'body.credentials.privateKey',
    'body.property',
    'body.urlPattern',
  ]);

  expect((await app.api().get(integrationPath(projectId))).status).toBe(404);
  expect(await logText()).not.toContain('SearchAnalytics');
});

test('a connection is checked, saved sealed and never returned; GET shows the kind, the property, the status and the last sync', async () => {
  const saved = await put(connectBody({ urlPattern: undefined }));
  expect(saved.status).toBe(200);
  expect(saved.body.searchAnalytics).toMatchObject({
    provider: 'google-search-console',
    property: PROPERTY,
    urlPattern: '{siteUrl}/blog/{slug}',
    exampleUrl: 'https://crumb.example/blog/your-article-slug',
    credentials: { type: 'oauth' },
    status: 'ok',
    reason: null,
    lastSync: { trigger: 'connect', status: 'running' },
  });
  expect(google.callsOf('site').at(-1)).toMatchObject({ siteUrl: PROPERTY, status: 200 });
  for (const secret of [OAUTH.clientSecret, OAUTH.refreshToken])
    expect(JSON.stringify(saved.body)).not.toContain(secret);

  const read = await settledSync(app.api(), projectId, eventually);
  expect(read).toMatchObject({
    status: 'ok',
    lastSync: { status: 'completed', articles: 0, withTraffic: 0 },
    lastSuccessfulSyncAt: read.lastSync.finishedAt,
  });
  expect(Date.parse(read.nextSyncAt) - Date.parse(read.lastSync.requestedAt)).toBe(24 * 3_600_000);

  const email = google.serviceAccount.clientEmail;
  google.setUser(PROPERTY, email, 'siteRestrictedUser');
  const serviceAccount = await put(
    connectBody({ credentials: { type: 'service_account', ...google.serviceAccount } }),
  );
  expect(serviceAccount.status).toBe(200);
  expect(serviceAccount.body.searchAnalytics.credentials).toEqual({
    type: 'service_account',
    clientEmail: email,
  });
  expect(JSON.stringify(serviceAccount.body)).not.toContain('PRIVATE KEY');
  expect(
    (await app.api().get(integrationPath(projectId))).body.searchAnalytics.credentials.type,
  ).toBe('service_account');

  const log = await logText();
  expect(log).toContain('SearchAnalyticsConnected');
  for (const secret of [
    OAUTH.clientSecret,
    OAUTH.refreshToken,
    google.serviceAccount.privateKey.split('\n')[1],
  ])
    expect(log).not.toContain(secret);
});

test("another account's project is not found on every search-analytics endpoint, and nothing changes", async () => {
  const intruder = app.api(await app.newKey('intruder'));
  const calls = google.calls.length;
  expect((await intruder.get(integrationPath(projectId))).status).toBe(404);
  expect((await intruder.put(integrationPath(projectId), connectBody())).status).toBe(404);
  expect((await intruder.post(`${integrationPath(projectId)}/sync`)).status).toBe(404);
  expect((await intruder.delete(integrationPath(projectId))).status).toBe(404);
  expect(google.calls.length).toBe(calls);
  expect((await app.api().get(integrationPath(projectId))).status).toBe(200);
});

test('disconnecting stops the connection: GET and DELETE then answer 404, and a sync cannot be asked for', async () => {
  expect((await app.api().delete(integrationPath(projectId))).status).toBe(204);
  expect((await app.api().get(integrationPath(projectId))).status).toBe(404);
  expect((await app.api().delete(integrationPath(projectId))).body.error.code).toBe('not_found');
  const sync = await app.api().post(`${integrationPath(projectId)}/sync`);
  expect(sync.status).toBe(404);
  expect(sync.body.error.message).toContain(
    `PUT /api/v1/projects/${projectId}/integrations/search-analytics`,
  );
});
