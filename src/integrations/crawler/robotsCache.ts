import { errorMessage, isSuccess, MAX_REDIRECTS, type FetchContext } from './fetchContext.ts';
import { crawlDelayFor, isAllowed, parseRobots, rulesFor, type RobotsRule } from './robots.ts';

export type RobotsVerdict = {
  origin: string;
  rules: RobotsRule[];
  sitemaps: string[];
  /** Seconds between two requests the site asks of us (Crawl-delay); absent when it asks none. */
  crawlDelaySeconds?: number;
  /** Set when robots.txt could not be read in a way that closes the site (RFC 9309: unreachable or 5xx). */
  problem?: { kind: 'unreachable' | 'server_error'; message: string };
};

const MAX_ROBOTS_BYTES = 512 * 1024;
const closed: RobotsRule[] = [{ allow: false, pattern: '/' }];

/** Fetches each origin's robots.txt once and answers whether a URL may be crawled. */
export function createRobotsCache(ctx: FetchContext) {
  const cache = new Map<string, Promise<RobotsVerdict>>();

  const load = async (origin: string): Promise<RobotsVerdict> => {
    const url = `${origin}/robots.txt`;
    try {
      const response = await ctx.http.request(url, {
        timeoutMs: ctx.timeoutMs,
        maxBytes: MAX_ROBOTS_BYTES,
        onTooLarge: 'truncate',
        maxRedirects: MAX_REDIRECTS,
        signal: ctx.signal,
        headers: { accept: 'text/plain,*/*;q=0.5' },
      });
      if (isSuccess(response.status)) {
        const robots = parseRobots(response.body.toString('utf8'));
        const crawlDelaySeconds = crawlDelayFor(robots, ctx.robotsToken);
        return {
          origin,
          rules: rulesFor(robots, ctx.robotsToken),
          sitemaps: robots.sitemaps,
          ...(crawlDelaySeconds > 0 ? { crawlDelaySeconds } : {}),
        };
      }
      if (response.status >= 500) {
        return {
          origin,
          rules: closed,
          sitemaps: [],
          problem: {
            kind: 'server_error',
            message:
              `${url} answered HTTP ${response.status}; until it answers normally the site counts as closed to crawlers ` +
              '(RFC 9309). Fix the server error and crawl again.',
          },
        };
      }
      return { origin, rules: [], sitemaps: [] }; // 4xx (and odd statuses): no robots.txt, everything allowed
    } catch (error) {
      return {
        origin,
        rules: closed,
        sitemaps: [],
        problem: { kind: 'unreachable', message: errorMessage(error) },
      };
    }
  };

  const forUrl = (url: string): Promise<RobotsVerdict> => {
    const origin = new URL(url).origin;
    let verdict = cache.get(origin);
    if (!verdict) cache.set(origin, (verdict = load(origin)));
    return verdict;
  };

  return {
    forUrl,
    async allows(url: string): Promise<{ allowed: true } | { allowed: false; reason: string }> {
      const verdict = await forUrl(url);
      const { pathname, search } = new URL(url);
      if (isAllowed(verdict.rules, pathname + search)) return { allowed: true };
      return {
        allowed: false,
        reason:
          verdict.problem?.message ??
          `robots.txt disallows ${pathname + search} for ${ctx.robotsToken}`,
      };
    },
  };
}

export type RobotsCache = ReturnType<typeof createRobotsCache>;
