import { errorMessage, isSuccess, MAX_REDIRECTS, type FetchContext } from './fetchContext.ts';
import type { RobotsCache } from './robotsCache.ts';
import { looksLikeAsset, normalizePageUrl, type SiteScope } from './siteScope.ts';
import type { SkippedUrl } from './types.ts';

const MAX_SITEMAP_FILES = 10;
const MAX_SITEMAP_BYTES = 10 * 1024 * 1024;
const MAX_PAGE_URLS = 1_000;

/**
 * Page URLs from the site's sitemaps, following sitemap index files. Sitemaps may live on another
 * host (robots.txt can point anywhere), but only same-site page URLs are kept.
 */
export async function collectSitemapUrls(
  ctx: FetchContext,
  options: {
    sources: string[];
    scope: SiteScope;
    robots: RobotsCache;
  },
): Promise<{ urls: string[]; skipped: SkippedUrl[] }> {
  const queue = [
    ...new Set(
      options.sources
        .map((source) => normalizePageUrl(source))
        .filter((s): s is string => s !== null),
    ),
  ];
  const visited = new Set<string>();
  const urls = new Set<string>();
  const skipped: SkippedUrl[] = [];

  while (
    queue.length > 0 &&
    visited.size < MAX_SITEMAP_FILES &&
    urls.size < MAX_PAGE_URLS &&
    !ctx.signal.aborted
  ) {
    const sitemapUrl = queue.shift() as string;
    if (visited.has(sitemapUrl)) continue;
    visited.add(sitemapUrl);
    if (options.scope.includes(sitemapUrl)) {
      const verdict = await options.robots.allows(sitemapUrl);
      if (!verdict.allowed) {
        skipped.push({ url: sitemapUrl, kind: 'sitemap', reason: verdict.reason });
        continue;
      }
    }
    try {
      const response = await ctx.http.request(sitemapUrl, {
        timeoutMs: ctx.timeoutMs,
        maxBytes: MAX_SITEMAP_BYTES,
        onTooLarge: 'truncate',
        maxRedirects: MAX_REDIRECTS,
        signal: ctx.signal,
      });
      if (!isSuccess(response.status)) {
        skipped.push({
          url: sitemapUrl,
          kind: 'sitemap',
          reason: `sitemap answered HTTP ${response.status}`,
        });
        continue;
      }
      const { parseSitemap } = await import('./sitemap.ts'); // loads cheerio at the first crawl, not at start
      const sitemap = parseSitemap(response.body, MAX_SITEMAP_BYTES);
      if (sitemap.kind === 'index') queue.push(...sitemap.locations);
      for (const location of sitemap.locations) {
        const url = sitemap.kind === 'urlset' ? normalizePageUrl(location, response.url) : null;
        if (url && options.scope.includes(url) && !looksLikeAsset(url) && urls.size < MAX_PAGE_URLS)
          urls.add(url);
      }
    } catch (error) {
      skipped.push({ url: sitemapUrl, kind: 'sitemap', reason: errorMessage(error) });
    }
  }
  return { urls: [...urls], skipped };
}
