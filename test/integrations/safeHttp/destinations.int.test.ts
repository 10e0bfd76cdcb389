import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ResolvedAddress } from '../../../src/integrations/safeHttp/index.ts';
import { eventually } from '../../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';

/**
 * One destination policy, through the API, with private URLs not allowed (production): every
 * spelling of a private host is refused when it is registered, as it would be at connection, and
 * no tenant-visible message says what a name resolved to. DNS is injected: names below point
 * wherever a test needs, and any other name does not resolve.
 */
const dns = new Map<string, string[]>([
  ['internal.example', ['10.0.0.5']],
  ['metadata.example', ['169.254.169.254']],
  ['mixed.example', ['93.184.216.34', '10.0.0.1']],
  ['mapped.example', ['::ffff:127.0.0.1']],
  ['public.example', ['93.184.216.34']],
]);
const resolveHost = async (hostname: string): Promise<ResolvedAddress[]> => {
  const addresses = dns.get(hostname);
  if (!addresses)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const privateSpellings = [
  'https://localhost/hook',
  'https://LOCALHOST./hook',
  'https://app.localhost/hook',
  'https://127.1/hook',
  'https://0x7f000001/hook',
  'https://2130706433/hook',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:a00:5]/hook',
  'https://internal.example/hook',
  'https://metadata.example/latest/meta-data',
  'https://mixed.example/hook',
  'https://mapped.example/hook',
];
/**
 * What a name resolved to (the injected answers, and loopback for localhost), and words that name
 * internal ranges: none may reach a tenant. An IP literal is named as the URL parser spells it
 * (127.1 as 127.0.0.1): that is what the tenant wrote, not what a name resolved to.
 */
const leaks =
  /10\.0\.0\.5|169\.254\.169\.254|93\.184\.216\.34|10\.0\.0\.1\b|::ffff:127|10\.1\.2\.3|resolves to|loopback|link-local|RFC 1918|private \(/i;
const isLiteral = (url: string) => /^\[|^[\d.]+$|^0x/i.test(new URL(url).hostname);
const expectNoLeak = (message: string, url: string) => {
  expect(message, url).not.toMatch(leaks);
  if (!isLiteral(url)) expect(message, url).not.toMatch(/127\.0\.0\.1|::1\b/);
};

let app: TestInkstream;
beforeAll(async () => {
  app = await startInkstream({ env: { INKSTREAM_ALLOW_PRIVATE_URLS: '0' }, resolveHost });
});
afterAll(async () => {
  await app.close();
});

const events = async (category: string) =>
  (await app.platform.eventStore.readAll({ categories: [category], maxCount: 10_000 })).length;

test('a webhook URL whose host is private in any spelling is refused with 400 naming url, and nothing is registered', async () => {
  for (const url of privateSpellings) {
    const response = await app.api().post('/webhooks', { url });
    expect(response.status, url).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.error.details, url).toEqual([
      {
        path: 'body.url',
        message: expect.stringMatching(
          /^Refused to connect: .* not (resolve to )?a public address\./,
        ),
      },
    ]);
    expectNoLeak(response.body.error.message, url);
  }
  expect((await app.api().get('/webhooks')).body.webhooks).toEqual([]);
  expect(await events('webhook')).toBe(0);
  expect(await events('usage')).toBe(0);
});

test('a post-publish hook URL whose host is private is refused with 400 naming url, and the hook stays unset', async () => {
  const project = (
    await app.api().post('/projects', { name: 'Hooked', websiteUrl: 'https://not-yet.example' })
  ).body.project;
  for (const url of privateSpellings) {
    const response = await app
      .api()
      .put(`/projects/${project.id}/integrations/post-publish-hook`, { url });
    expect(response.status, url).toBe(400);
    expect(response.body.error.details, url).toEqual([
      { path: 'body.url', message: expect.stringMatching(/not (resolve to )?a public address/) },
    ]);
    expectNoLeak(response.body.error.message, url);
  }
  expect(
    (await app.api().get(`/projects/${project.id}/integrations/post-publish-hook`)).status,
  ).toBe(404);
});

test('a project whose website, blog or sitemap URL is private is refused with 400 naming that field, and not created', async () => {
  for (const field of ['websiteUrl', 'blogUrl', 'sitemapUrl'] as const) {
    for (const url of [
      'https://localhost:8080/',
      'https://internal.example/',
      'https://[::ffff:7f00:1]/',
    ]) {
      const body = { name: 'Sneaky', websiteUrl: 'https://not-yet.example', [field]: url };
      const response = await app.api().post('/projects', body);
      expect(response.status, `${field} ${url}`).toBe(400);
      expect(response.body.error.details).toEqual([
        {
          path: `body.${field}`,
          message: expect.stringMatching(/not (resolve to )?a public address/),
        },
      ]);
      expectNoLeak(response.body.error.message, url);
    }
  }
  const names = (await app.api().get('/projects')).body.projects.map(
    (project: { name: string }) => project.name,
  );
  expect(names).not.toContain('Sneaky');
});

test('public hosts and names that do not resolve yet are accepted (deliveries and crawls judge them again)', async () => {
  const accepted = [
    await app.api().post('/webhooks', { url: 'https://public.example/hook' }),
    await app.api().post('/webhooks', { url: 'https://not-registered-yet.example/hook' }),
  ];
  expect(accepted.map((response) => response.status)).toEqual([201, 201]);
  expect(
    (
      await app.api().post('/projects', {
        name: 'Later',
        websiteUrl: 'https://site-not-yet.example',
        blogUrl: 'https://public.example/blog',
      })
    ).status,
  ).toBe(201);
  // Deleted again, so the events of the next tests are not sent to a real public address.
  for (const response of accepted)
    expect((await app.api().delete(`/webhooks/${response.body.webhook.id}`)).status).toBe(204);
});

test('a name pointed at a private address after registration is refused at delivery, and the log does not say what it resolved to', async () => {
  const { webhook } = (await app.api().post('/webhooks', { url: 'https://rebound.example/hook' }))
    .body;
  dns.set('rebound.example', ['10.1.2.3']);
  expect((await app.api().post(`/webhooks/${webhook.id}/test`)).status).toBe(202);
  const [delivery] = await eventually(
    async () => (await app.api().get(`/webhooks/${webhook.id}/deliveries`)).body.deliveries,
    (deliveries: any[]) => deliveries[0]?.attempts.length > 0,
    { what: 'the first attempt' },
  );
  expect(delivery.attempts[0]).toMatchObject({
    statusCode: null,
    error: expect.stringMatching(
      /^Refused to connect: rebound\.example does not resolve to a public address\./,
    ),
  });
  expect(JSON.stringify(delivery)).not.toMatch(leaks);
});

test('a site pointed at a private address after the project was created fails its crawl with a reason that names only the host', async () => {
  const { project } = (
    await app
      .api()
      .post('/projects', { name: 'Rebound site', websiteUrl: 'https://rebound-site.example' })
  ).body;
  dns.set('rebound-site.example', ['169.254.169.254']);
  const { crawlId } = (await app.api().post(`/projects/${project.id}/crawl`)).body.project.crawl;
  const crawled = await eventually(
    async () => (await app.api().get(`/projects/${project.id}`)).body.project,
    (doc: any) => doc.crawl.crawlId === crawlId && doc.crawl.status !== 'pending',
    { what: 'the second crawl to end' },
  );
  expect(crawled.crawl.status).toBe('failed');
  expect(crawled.crawl.failureReason).toMatch(
    /rebound-site\.example does not resolve to a public address/,
  );
  expect(crawled.crawl.failureReason).not.toMatch(leaks);
});
