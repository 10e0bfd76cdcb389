import { setTimeout as delay } from 'node:timers/promises';
import type { ClaimedUrl, SiteCorpusStore } from '../siteCorpus/port.ts';
import { ROBOTS_TOKEN } from './crawlSite.ts';
import { sitemapsIntoFrontier } from './corpusSitemaps.ts';
import { errorMessage, isSuccess, MAX_REDIRECTS, type FetchContext } from './fetchContext.ts';
import { createRobotsCache } from './robotsCache.ts';
import { createSiteScope, looksLikeAsset, normalizePageUrl, pagePriority } from './siteScope.ts';
import type { HttpFetcher } from './types.ts';
import {
  createTrapGuard,
  DEFAULT_TRAP_LIMITS,
  type TrapLimits,
  withoutSessionIds,
} from './urlTraps.ts';

export type CorpusCrawlInput = {
  projectId: string;
  websiteUrl: string;
  blogUrl?: string;
  sitemapUrl?: string;
  /** The most URLs the corpus knows (crawl.maxPages, within the plan's ceiling). */
  maxPages: number;
  /** Requests in flight at once (the per-origin limit of the HTTP client bounds them too). */
  concurrency?: number;
  requestTimeoutMs?: number;
  maxPageBytes?: number;
  /** The whole run, across restarts of the same process; what is left stays queued for the next run. */
  deadlineMs?: number;
  /** Longest page text kept (inert Markdown). */
  maxTextChars?: number;
  trapLimits?: TrapLimits;
  robotsToken?: string;
  now(): string;
  signal: AbortSignal;
};

export type CorpusCrawlOutcome = { stopped: 'finished' | 'deadline' | 'aborted' };

const htmlTypes = /^(?:text\/html|application\/xhtml\+xml)\b/i;
export const CORPUS_TEXT_CHARS = 100_000;
const MAX_CRAWL_DELAY_SECONDS = 30;

/**
 * The corpus crawl of one project: the frontier lives in the store (so a restart resumes where
 * it stopped, and memory holds only the requests in flight), pages are read with conditional
 * requests when the store knows them, skipped without a request when the sitemap's lastmod has
 * not moved since they were read, and every URL found passes the trap bounds. The caller starts
 * the run (`store.startRun`) and finishes it.
 */
export async function crawlCorpus(
  input: CorpusCrawlInput,
  http: HttpFetcher,
  store: SiteCorpusStore,
): Promise<CorpusCrawlOutcome> {
  const { projectId } = input;
  const home = normalizePageUrl(input.websiteUrl);
  if (!home) {
    store.addNote(projectId, 'The website address is not a valid http(s) URL.');
    return { stopped: 'finished' };
  }
  const blog = input.blogUrl ? (normalizePageUrl(input.blogUrl, home) ?? undefined) : undefined;
  const deadline = AbortSignal.timeout(input.deadlineMs ?? 12 * 3600_000);
  const signal = AbortSignal.any([input.signal, deadline]);
  const ctx: FetchContext = {
    http,
    timeoutMs: input.requestTimeoutMs ?? 10_000,
    maxPageBytes: input.maxPageBytes ?? 2 * 1024 * 1024,
    robotsToken: input.robotsToken ?? ROBOTS_TOKEN,
    signal,
  };
  const note = (text: string) => store.addNote(projectId, text);
  const scope = createSiteScope(blog ? [home, blog] : [home]);
  const robots = createRobotsCache(ctx);
  const traps = createTrapGuard(input.trapLimits ?? DEFAULT_TRAP_LIMITS);
  let capNoted = false;
  const enqueueLinks = (links: readonly string[], depth: number) => {
    const fresh = [];
    for (const link of links) {
      if (looksLikeAsset(link)) continue;
      const url = withoutSessionIds(link);
      const trap = traps.check(url, depth);
      if (trap) {
        note(`Left out URLs such as ${url.slice(0, 200)}: ${trap}.`);
        continue;
      }
      fresh.push({ url, priority: pagePriority(url), depth });
    }
    const { refused } = store.enqueue(projectId, fresh, input.maxPages);
    if (refused > 0 && !capNoted) {
      capNoted = true;
      note(`The corpus reached crawl.maxPages (${input.maxPages}); further pages were left out.`);
    }
  };

  const homeRobots = await robots.forUrl(home);
  if (homeRobots.problem) {
    note(homeRobots.problem.message);
    return { stopped: signal.aborted ? stoppedBy(input.signal) : 'finished' };
  }
  const run = store.run(projectId);
  if (!run?.sitemapDone) {
    enqueueLinks(blog ? [home, blog] : [home], 0);
    const blogRobots = blog ? await robots.forUrl(blog) : undefined;
    const sources = input.sitemapUrl
      ? [input.sitemapUrl]
      : [...homeRobots.sitemaps, ...(blogRobots?.sitemaps ?? [])];
    await sitemapsIntoFrontier(ctx, {
      sources: sources.length > 0 ? sources : [new URL('/sitemap.xml', home).href],
      scope,
      robots,
      enqueue: (urls) => store.enqueue(projectId, urls, input.maxPages).refused,
      note,
    });
    if (signal.aborted) return { stopped: stoppedBy(input.signal) };
    store.markSitemapDone(projectId);
  }

  const crawlDelayMs = Math.min(homeRobots.crawlDelaySeconds ?? 0, MAX_CRAWL_DELAY_SECONDS) * 1000;
  if ((homeRobots.crawlDelaySeconds ?? 0) > MAX_CRAWL_DELAY_SECONDS)
    note(
      `robots.txt asks for a Crawl-delay above ${MAX_CRAWL_DELAY_SECONDS} s; the crawl waits ${MAX_CRAWL_DELAY_SECONDS} s between requests.`,
    );
  const concurrency = crawlDelayMs > 0 ? 1 : Math.max(1, Math.min(input.concurrency ?? 4, 8));
  let nextStartMs = 0;
  const pace = async () => {
    if (crawlDelayMs === 0) return;
    const wait = nextStartMs - Date.now();
    if (wait > 0) await delay(wait, undefined, { signal });
    nextStartMs = Date.now() + crawlDelayMs;
  };

  const visit = async (claimed: ClaimedUrl) => {
    const { url } = claimed;
    const at = () => input.now();
    const verdict = await robots.allows(url);
    if (!verdict.allowed) return store.recordSkipped(projectId, url, verdict.reason);
    if (claimed.hash && claimed.lastmod && claimed.lastmod === claimed.readLastmod)
      return store.recordUnchanged(projectId, url, at());
    const headers: Record<string, string> = {
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
    };
    if (claimed.hash && claimed.etag) headers['if-none-match'] = claimed.etag;
    if (claimed.hash && claimed.lastModified) headers['if-modified-since'] = claimed.lastModified;
    await pace();
    const response = await http.request(url, {
      headers,
      timeoutMs: ctx.timeoutMs,
      maxBytes: ctx.maxPageBytes,
      onTooLarge: 'truncate',
      maxRedirects: MAX_REDIRECTS,
      signal,
    });
    if (response.status === 304 && claimed.hash) return store.recordUnchanged(projectId, url, at());
    if (!isSuccess(response.status))
      return store.recordFailed(projectId, url, `HTTP ${response.status}`, at());
    const finalUrl = normalizePageUrl(response.url) ?? url;
    if (!scope.includes(finalUrl))
      return store.recordSkipped(projectId, url, `redirects to another site (${finalUrl})`);
    const contentType = response.headers['content-type'] ?? '';
    const sniffed =
      !contentType &&
      /^\s*(?:<!doctype html|<html)/i.test(response.body.subarray(0, 512).toString('latin1'));
    if (!htmlTypes.test(contentType) && !sniffed)
      return store.recordSkipped(
        projectId,
        url,
        `not an HTML page (${contentType.split(';')[0] || 'no content type'})`,
      );
    if (finalUrl !== url) {
      // Recorded under the address that answered; the redirecting one only points at it.
      const target = { url: finalUrl, priority: 0, depth: claimed.depth };
      if (store.enqueue(projectId, [target]).added === 0) {
        store.recordSkipped(projectId, url, `redirects to ${finalUrl}`);
        return;
      }
      store.recordSkipped(projectId, url, `redirects to ${finalUrl}`);
    }
    const { parsePage } = await import('./parsePage.ts');
    const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
    const { mdxText } = await import('../../mdx/mdxSyntax.ts');
    const {
      followLinks,
      documentHtml: _html,
      ...parsed
    } = parsePage({
      url: finalUrl,
      status: response.status,
      html: response.body,
      charset,
      inScope: scope.includes,
    });
    // The main text without navigation, footer and scripts, each block escaped so MDX reads it as
    // text only. The brand crawl's readability pass costs ~4× the parse per page: at thousands of
    // pages it would bound the crawl's pace, not the site's.
    const markdown = parsed.text.split('\n').map(mdxText).filter(Boolean).join('\n\n');
    store.recordRead(
      projectId,
      {
        url: finalUrl,
        title: parsed.title.slice(0, 500),
        description: parsed.description?.slice(0, 1000) ?? null,
        headings: parsed.headings.slice(0, 50).map((heading) => heading.text.slice(0, 300)),
        text: markdown.slice(0, input.maxTextChars ?? CORPUS_TEXT_CHARS),
        etag: response.headers.etag ?? null,
        lastModified: response.headers['last-modified'] ?? null,
      },
      claimed.lastmod,
      at(),
    );
    if (followLinks) enqueueLinks(parsed.links, claimed.depth + 1);
  };

  const running = new Set<Promise<void>>();
  while (!signal.aborted) {
    while (running.size < concurrency && !signal.aborted) {
      const [claimed] = store.claim(projectId, 1);
      if (!claimed) break;
      const task: Promise<void> = visit(claimed)
        .catch((error) => {
          if (!signal.aborted)
            store.recordFailed(projectId, claimed.url, errorMessage(error), input.now());
        })
        .finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size === 0) break;
    await Promise.race(running);
  }
  await Promise.all(running);
  if (input.signal.aborted) return { stopped: 'aborted' };
  if (deadline.aborted) {
    note(
      'The crawl did not finish within its deadline; the pages left are read by the next crawl.',
    );
    return { stopped: 'deadline' };
  }
  return { stopped: 'finished' };
}

const stoppedBy = (signal: AbortSignal): CorpusCrawlOutcome['stopped'] =>
  signal.aborted ? 'aborted' : 'deadline';
