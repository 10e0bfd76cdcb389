import { describeCrawlFailure } from './crawlFailure.ts';
import type { FetchContext } from './fetchContext.ts';
import { fetchPage } from './fetchPage.ts';
import { readableMarkdown } from './readableMarkdown.ts';
import { fetchStylesheets } from './fetchStylesheets.ts';
import { createFrontier, type Frontier } from './frontier.ts';
import { createRobotsCache, type RobotsCache } from './robotsCache.ts';
import { collectSitemapUrls } from './sitemapUrls.ts';
import {
  createSiteScope,
  looksLikeAsset,
  normalizePageUrl,
  pagePriority,
  type SiteScope,
} from './siteScope.ts';
import type { CrawledPage, CrawlInput, CrawlResult, HttpFetcher, SkippedUrl } from './types.ts';

export const ROBOTS_TOKEN = 'Inkstream';
const MAX_SKIPPED = 200;
const clamp = (value: number, min: number, max: number) =>
  Math.min(max, Math.max(min, Math.floor(value)));

/**
 * Crawls a website the polite way: robots.txt first, then the home page, the blog and the
 * sitemap's pages, then the pages they link, up to `pageCap` HTML pages. Every request is bounded
 * in time and size and the whole crawl by a deadline, so it always ends, with a `failure` reason
 * when nothing could be read.
 */
export async function crawlSite(input: CrawlInput, http: HttpFetcher): Promise<CrawlResult> {
  const home = normalizePageUrl(input.websiteUrl);
  if (!home) {
    return {
      pages: [],
      stylesheets: [],
      skipped: [],
      failure: `${JSON.stringify(input.websiteUrl)} is not a valid http(s) website address.`,
    };
  }
  const blog = input.blogUrl ? (normalizePageUrl(input.blogUrl, home) ?? undefined) : undefined;
  const pageCap = clamp(input.pageCap ?? 25, 1, 200);
  const concurrency = clamp(input.concurrency ?? 3, 1, 4);
  const deadlineMs = input.deadlineMs ?? 120_000;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deadlineMs);
  const ctx: FetchContext = {
    http,
    timeoutMs: input.requestTimeoutMs ?? 10_000,
    maxPageBytes: input.maxPageBytes ?? 2 * 1024 * 1024,
    robotsToken: input.robotsToken ?? ROBOTS_TOKEN,
    signal: deadline.signal,
  };
  const scope = createSiteScope(blog ? [home, blog] : [home]);
  const robots = createRobotsCache(ctx);
  const skipped: SkippedUrl[] = [];
  const skip = (entry: SkippedUrl) => {
    if (skipped.length < MAX_SKIPPED) skipped.push(entry);
  };

  try {
    const homeRobots = await robots.forUrl(home);
    if (homeRobots.problem?.kind === 'unreachable') {
      return {
        pages: [],
        stylesheets: [],
        skipped,
        failure: `Could not reach ${home}: ${homeRobots.problem.message}`,
      };
    }
    const frontier = createFrontier();
    frontier.add(home, 0);
    if (blog) frontier.add(blog, 1);
    const blogRobots = blog ? await robots.forUrl(blog) : undefined;
    const sources = input.sitemapUrl
      ? [input.sitemapUrl]
      : [...homeRobots.sitemaps, ...(blogRobots?.sitemaps ?? [])];
    const sitemap = await collectSitemapUrls(ctx, {
      sources: sources.length > 0 ? sources : [new URL('/sitemap.xml', home).href],
      scope,
      robots,
    });
    sitemap.skipped.forEach(skip);
    for (const url of sitemap.urls) frontier.add(url, pagePriority(url));

    const pages = await crawlPages({
      ctx,
      frontier,
      scope,
      robots,
      skip,
      pageCap,
      concurrency,
      seeds: [home, blog],
    });
    const styles = await fetchStylesheets(ctx, { pages, robots, concurrency });
    styles.skipped.forEach(skip);
    const failure =
      pages.length > 0
        ? undefined
        : describeCrawlFailure({
            homeUrl: home,
            robotsToken: ctx.robotsToken,
            skipped,
            deadlineMs,
            deadlinePassed: deadline.signal.aborted,
          });
    return {
      pages,
      stylesheets: styles.stylesheets,
      skipped,
      sitemapUrls: sitemap.urls,
      ...(failure ? { failure } : {}),
    };
  } finally {
    clearTimeout(timer);
  }
}

async function crawlPages(options: {
  ctx: FetchContext;
  frontier: Frontier;
  scope: SiteScope;
  robots: RobotsCache;
  skip(entry: SkippedUrl): void;
  pageCap: number;
  concurrency: number;
  seeds: Array<string | undefined>;
}): Promise<CrawledPage[]> {
  const { ctx, frontier, scope, robots, skip, pageCap } = options;
  const pages: CrawledPage[] = [];
  const running = new Set<Promise<void>>();
  const maxAttempts = pageCap * 4; // bounds the time spent on a site full of broken links
  let attempts = 0;

  const visit = async (url: string) => {
    const allowed = await robots.allows(url);
    if (!allowed.allowed) return skip({ url, kind: 'robots', reason: allowed.reason });
    const fetched = await fetchPage(ctx, url);
    if (options.seeds.includes(url)) scope.addHost(fetched.finalUrl); // e.g. example.com → example.co.uk
    if (!fetched.ok) return skip(fetched.skip);
    if (!scope.includes(fetched.finalUrl)) {
      return skip({
        url,
        kind: 'off_site',
        reason: `redirected to another site (${fetched.finalUrl})`,
      });
    }
    if (fetched.finalUrl !== url) {
      if (!frontier.markSeen(fetched.finalUrl)) return; // reached through another address already
      const finalAllowed = await robots.allows(fetched.finalUrl);
      if (!finalAllowed.allowed)
        return skip({ url: fetched.finalUrl, kind: 'robots', reason: finalAllowed.reason });
    }
    const { followLinks, documentHtml, ...parsed } = fetched.parse(scope.includes);
    const page: CrawledPage = {
      ...parsed,
      markdown: await readableMarkdown(documentHtml, parsed.text),
    };
    if (pages.length >= pageCap) return;
    pages.push(page);
    if (followLinks)
      for (const link of page.links)
        if (!looksLikeAsset(link)) frontier.add(link, pagePriority(link));
  };

  while (!ctx.signal.aborted) {
    while (
      running.size < options.concurrency &&
      pages.length + running.size < pageCap &&
      attempts < maxAttempts
    ) {
      const url = frontier.next();
      if (!url) break;
      attempts += 1;
      const task: Promise<void> = visit(url)
        .catch((error) => skip({ url, kind: 'error', reason: String(error) }))
        .finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size === 0) break;
    await Promise.race(running);
  }
  await Promise.all(running);
  return pages;
}
