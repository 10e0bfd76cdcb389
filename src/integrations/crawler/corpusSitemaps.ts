import { errorMessage, isSuccess, MAX_REDIRECTS, type FetchContext } from './fetchContext.ts';
import type { RobotsCache } from './robotsCache.ts';
import { readSitemap } from './sitemapEntries.ts';
import { looksLikeAsset, normalizePageUrl, pagePriority, type SiteScope } from './siteScope.ts';
import type { QueuedUrl } from '../siteCorpus/port.ts';

export const MAX_SITEMAP_FILES = 50;
export const MAX_SITEMAP_BYTES = 10 * 1024 * 1024;
const BATCH = 500;

/**
 * Streams the page URLs of every sitemap (indexes, nested indexes, gzipped files) into the
 * frontier in batches (the store refuses new URLs beyond the page cap, and refreshes the lastmod
 * of known ones). At most MAX_SITEMAP_FILES files
 * and MAX_SITEMAP_BYTES (unpacked) each; every bound that cut something is reported as a note.
 */
export async function sitemapsIntoFrontier(
  ctx: FetchContext,
  options: {
    sources: string[];
    scope: SiteScope;
    robots: RobotsCache;
    /** Answers how many new URLs the page cap refused. */
    enqueue(urls: QueuedUrl[]): number;
    note(text: string): void;
  },
): Promise<void> {
  const queue = [
    ...new Set(options.sources.map((s) => normalizePageUrl(s)).filter((s): s is string => !!s)),
  ];
  const visited = new Set<string>();
  let full = false;
  while (queue.length > 0 && !ctx.signal.aborted) {
    if (visited.size >= MAX_SITEMAP_FILES) {
      options.note(
        `The site has more than ${MAX_SITEMAP_FILES} sitemap files; the others were not read (their pages are found through links).`,
      );
      break;
    }
    const sitemapUrl = queue.shift() as string;
    if (visited.has(sitemapUrl)) continue;
    visited.add(sitemapUrl);
    if (options.scope.includes(sitemapUrl) && !(await options.robots.allows(sitemapUrl)).allowed)
      continue;
    let body: Buffer;
    let finalUrl: string;
    let truncated: boolean;
    try {
      const response = await ctx.http.request(sitemapUrl, {
        timeoutMs: ctx.timeoutMs * 3,
        maxBytes: MAX_SITEMAP_BYTES,
        onTooLarge: 'truncate',
        maxRedirects: MAX_REDIRECTS,
        signal: ctx.signal,
      });
      if (!isSuccess(response.status)) continue;
      ({ body, url: finalUrl, truncated } = response);
    } catch (error) {
      options.note(`The sitemap ${sitemapUrl} could not be read: ${errorMessage(error)}.`);
      continue;
    }
    const sitemap = readSitemap(body, MAX_SITEMAP_BYTES);
    if (truncated || sitemap.cut)
      options.note(
        `The sitemap ${sitemapUrl} is larger than ${MAX_SITEMAP_BYTES / 1024 / 1024} MB (unpacked); only its beginning was read.`,
      );
    let batch: QueuedUrl[] = [];
    for (const entry of sitemap.entries) {
      if (sitemap.kind === 'index') {
        const nested = normalizePageUrl(entry.loc, finalUrl);
        if (nested && queue.length < MAX_SITEMAP_FILES) queue.push(nested);
        continue;
      }
      const url = normalizePageUrl(entry.loc, finalUrl);
      if (!url || !options.scope.includes(url) || looksLikeAsset(url)) continue;
      batch.push({ url, priority: pagePriority(url), depth: 0, lastmod: entry.lastmod });
      if (batch.length >= BATCH) {
        if (options.enqueue(batch) > 0) full = true;
        batch = [];
      }
    }
    if (batch.length > 0 && options.enqueue(batch) > 0) full = true;
    if (full)
      options.note(
        'The sitemaps list more pages than crawl.maxPages allows; the corpus keeps the first ones.',
      );
  }
}
