import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { crawlSite } from '../../../src/integrations/crawler/crawlSite.ts';
import {
  createSafeHttpClient,
  type SafeHttpClient,
} from '../../../src/integrations/safeHttp/index.ts';
import { startHttpServer } from '../../support/httpServer.ts';
import {
  page,
  startTestSite,
  type TestSite,
  type TestSiteOptions,
} from '../../support/testSite.ts';

let http: SafeHttpClient;
const sites: TestSite[] = [];
beforeAll(() => {
  http = createSafeHttpClient({ allowPrivateAddresses: true });
});
afterAll(() => http.close());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()));
});

const site = async (options?: TestSiteOptions) => {
  const started = await startTestSite(options);
  sites.push(started);
  return started;
};
const paths = (urls: string[]) => urls.map((url) => new URL(url).pathname).sort();

describe('the default test site', () => {
  test('finds the home page, about, products, blog and posts, and respects robots.txt', async () => {
    const s = await site();
    const result = await crawlSite({ websiteUrl: s.origin }, http);
    expect(result.failure).toBeUndefined();
    expect(paths(result.pages.map((p) => p.url))).toEqual([
      '/',
      '/about',
      '/blog',
      '/blog/holiday-preorders',
      '/blog/pricing-sourdough',
      '/blog/proofing-schedules',
      '/products/inventory',
      '/products/online-ordering',
    ]);
    expect(s.requests[0].path).toBe('/robots.txt');
    expect(s.requested('/private/staff-handbook')).toBe(false);
    expect(result.skipped).toContainEqual({
      url: s.url('/private/staff-handbook'),
      kind: 'robots',
      reason: expect.stringMatching(/robots\.txt disallows/),
    });
    expect(s.requests.every((r) => r.userAgent?.startsWith('Inkstream/'))).toBe(true);
    expect(result.stylesheets.map((sheet) => sheet.url)).toEqual([s.url('/assets/site.css')]);
    expect(result.stylesheets[0].css).toContain('--primary: #E4572E');
  });

  test('a page keeps its metadata, headings, main text, quotes and same-site links', async () => {
    const s = await site();
    const { pages } = await crawlSite({ websiteUrl: s.origin }, http);
    const home = pages.find((p) => p.url === s.url('/'))!;
    expect(home).toMatchObject({
      status: 200,
      lang: 'en-US',
      title: 'Ordering software for independent bakeries | Crumb & Co.',
      themeColor: '#1B998B',
      siteName: 'Crumb & Co.',
      description: 'Online ordering and inventory software for independent bakeries.',
    });
    expect(home.headings).toEqual([
      { level: 1, text: 'Sell more bread with less busywork' },
      { level: 2, text: 'Why bakers choose us' },
    ]);
    expect(home.text.split('\n')).toContain('Trusted by 500+ bakeries in 12 countries.');
    expect(home.text).not.toMatch(/analytics|Staff|Online Ordering\n/);
    expect(home.footerText).toContain('Portland, Oregon');
    expect(home.quotes[0]).toMatch(/^"Crumb & Co\. gave me my Sunday mornings back/);
    expect(home.navLinks).toContainEqual({ text: 'About', url: s.url('/about') });
    expect(home.links).toContain(s.url('/products/online-ordering')); // utm_source dropped
    expect(home.links.some((link) => link.includes('twitter.example'))).toBe(false);
    expect(home.inlineCss).toContain('#FFF4E0');
  });

  test('the page cap keeps the pages that say most about the company', async () => {
    const s = await site();
    const { pages } = await crawlSite({ websiteUrl: s.origin, pageCap: 3, concurrency: 1 }, http);
    expect(pages.map((p) => new URL(p.url).pathname)).toEqual([
      '/',
      '/about',
      '/products/online-ordering',
    ]);
  });

  test('an explicit blog address and sitemap index lead to pages nothing links to', async () => {
    const s = await site({
      pages: {
        '/robots.txt': 'User-agent: *\nAllow: /\n',
        '/sitemap-index.xml':
          '<sitemapindex><sitemap><loc>{{origin}}/sitemap-pages.xml</loc></sitemap></sitemapindex>',
        '/sitemap-pages.xml': '<urlset><url><loc>{{origin}}/hidden-page</loc></url></urlset>',
        '/hidden-page': page('<p>Only the sitemap knows me.</p>'),
        '/journal': page('<a href="/journal/first">First</a>'),
        '/journal/first': page('<p>The first entry.</p>'),
      },
    });
    const result = await crawlSite(
      { websiteUrl: s.origin, blogUrl: '/journal', sitemapUrl: s.url('/sitemap-index.xml') },
      http,
    );
    expect(paths(result.pages.map((p) => p.url))).toEqual(
      expect.arrayContaining(['/hidden-page', '/journal', '/journal/first']),
    );
  });
});

describe('robots.txt', () => {
  test('the group naming Inkstream applies instead of "*"', async () => {
    const s = await site({
      pages: {
        '/robots.txt':
          'User-agent: *\nDisallow: /\n\nUser-agent: inkstream\nDisallow: /blog/\nAllow: /blog/pricing-sourdough\n',
      },
    });
    const { pages } = await crawlSite({ websiteUrl: s.origin }, http);
    const crawled = paths(pages.map((p) => p.url));
    expect(crawled).toContain('/about');
    expect(crawled).toContain('/blog/pricing-sourdough');
    expect(crawled).not.toContain('/blog/proofing-schedules');
  });

  test('disallowing everything ends the crawl with the reason and no page fetched', async () => {
    const s = await site({ pages: { '/robots.txt': 'User-agent: *\nDisallow: /\n' } });
    const result = await crawlSite({ websiteUrl: s.origin }, http);
    expect(result.pages).toEqual([]);
    expect(result.failure).toMatch(
      /robots\.txt .* does not allow "Inkstream".*User-agent: Inkstream/,
    );
    expect(s.requests.map((r) => r.path)).toEqual(['/robots.txt']);
  });

  test('a robots.txt that answers 503 closes the site, as RFC 9309 asks', async () => {
    const s = await site({ pages: { '/robots.txt': { status: 503, body: 'maintenance' } } });
    const result = await crawlSite({ websiteUrl: s.origin }, http);
    expect(result.failure).toMatch(/robots\.txt answered HTTP 503.*RFC 9309/);
  });
});

describe('failures end with a reason and never hang', () => {
  test('an unreachable site', async () => {
    const closed = await startHttpServer(() => {});
    await closed.close();
    const result = await crawlSite({ websiteUrl: closed.origin }, http);
    expect(result).toMatchObject({
      pages: [],
      failure: expect.stringMatching(/^Could not reach .*refused the connection/),
    });
  });

  test('a site where every page is an HTTP error', async () => {
    const s = await site({
      replaceDefaults: true,
      pages: {
        '/': { status: 500, body: page('<p>Oops</p><a href="/gone">gone</a>') },
        '/blog': { status: 404, body: 'missing' },
      },
    });
    const result = await crawlSite({ websiteUrl: s.origin, blogUrl: s.url('/blog') }, http);
    expect(result.failure).toMatch(
      /^Every page answered with an HTTP error \(HTTP 500 at .*\/; HTTP 404 at .*\/blog\)/,
    );
  });

  test('a home page that never answers', async () => {
    const s = await site({ replaceDefaults: true, pages: { '/': () => {} } });
    const result = await crawlSite({ websiteUrl: s.origin, requestTimeoutMs: 200 }, http);
    expect(result.failure).toMatch(/^Could not load .* did not answer completely within 200 ms/);
  });

  test('a crawl that outlives its deadline is cut short', async () => {
    const s = await site({ replaceDefaults: true, pages: { '/': () => {} } });
    const result = await crawlSite(
      { websiteUrl: s.origin, requestTimeoutMs: 60_000, deadlineMs: 200 },
      http,
    );
    expect(result.failure).toMatch(/did not finish within 200 ms/);
  });

  test('a home page that is not HTML', async () => {
    const s = await site({
      replaceDefaults: true,
      pages: { '/': { body: '{}', contentType: 'application/json' } },
    });
    const result = await crawlSite({ websiteUrl: s.origin }, http);
    expect(result.failure).toMatch(/is not an HTML page \(application\/json\)/);
  });

  test('a private address when private addresses are not allowed', async () => {
    const s = await site();
    const strict = createSafeHttpClient();
    try {
      const result = await crawlSite({ websiteUrl: s.origin }, strict);
      expect(result.failure).toMatch(
        /127\.0\.0\.1 is not a public address.*INKSTREAM_ALLOW_PRIVATE_URLS=1/,
      );
      expect(s.requests).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  test('an address that is not a URL', async () => {
    expect((await crawlSite({ websiteUrl: 'not a url' }, http)).failure).toMatch(
      /not a valid http\(s\) website address/,
    );
  });
});
