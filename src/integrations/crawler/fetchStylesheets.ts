import {
  errorMessage,
  isSuccess,
  mapWithConcurrency,
  MAX_REDIRECTS,
  type FetchContext,
} from './fetchContext.ts';
import type { RobotsCache } from './robotsCache.ts';
import type { CrawledPage, SkippedUrl, Stylesheet } from './types.ts';

const MAX_STYLESHEETS = 6;
const MAX_STYLESHEET_BYTES = 512 * 1024;

/** The same-site stylesheets the crawled pages use most (they carry the palette), capped in number and size. */
export async function fetchStylesheets(
  ctx: FetchContext,
  options: {
    pages: readonly CrawledPage[];
    robots: RobotsCache;
    concurrency: number;
  },
): Promise<{ stylesheets: Stylesheet[]; skipped: SkippedUrl[] }> {
  const uses = new Map<string, number>();
  for (const page of options.pages)
    for (const url of page.stylesheetUrls) uses.set(url, (uses.get(url) ?? 0) + 1);
  const chosen = [...uses.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_STYLESHEETS)
    .map(([url]) => url);

  const skipped: SkippedUrl[] = [];
  const fetched = await mapWithConcurrency(
    chosen,
    options.concurrency,
    async (url): Promise<Stylesheet | null> => {
      if (ctx.signal.aborted) return null;
      const verdict = await options.robots.allows(url);
      if (!verdict.allowed) {
        skipped.push({ url, kind: 'stylesheet', reason: verdict.reason });
        return null;
      }
      try {
        const response = await ctx.http.request(url, {
          headers: { accept: 'text/css,*/*;q=0.1' },
          timeoutMs: ctx.timeoutMs,
          maxBytes: MAX_STYLESHEET_BYTES,
          onTooLarge: 'truncate',
          maxRedirects: MAX_REDIRECTS,
          signal: ctx.signal,
        });
        if (!isSuccess(response.status)) {
          skipped.push({
            url,
            kind: 'stylesheet',
            reason: `stylesheet answered HTTP ${response.status}`,
          });
          return null;
        }
        if (/html/i.test(response.headers['content-type'] ?? '')) {
          skipped.push({ url, kind: 'stylesheet', reason: 'answered with an HTML page, not CSS' });
          return null;
        }
        return { url, css: response.body.toString('utf8') };
      } catch (error) {
        skipped.push({ url, kind: 'stylesheet', reason: errorMessage(error) });
        return null;
      }
    },
  );
  return { stylesheets: fetched.filter((sheet): sheet is Stylesheet => sheet !== null), skipped };
}
