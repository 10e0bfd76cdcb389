/**
 * Bounds on the URLs a corpus crawl follows, so a site that makes pages up (an endless calendar,
 * a `?page=` without end, a session id in every link) costs a bounded number of requests. Each
 * bound answers with a reason a person can read; the crawl notes it in its progress.
 */
export type TrapLimits = {
  /** Links followed from a seed (home, blog, a sitemap URL). */
  maxDepth: number;
  maxUrlLength: number;
  maxQueryParameters: number;
  /** URLs that differ only in their query, per path. */
  maxQueryVariantsPerPath: number;
  /** URLs per path shape (digit runs as N): /calendar/2026/11 and /calendar/2031/04 share one. */
  maxPerPathShape: number;
  /** The same path segment at most this often in one path (/a/b/a/b/a/b). */
  maxRepeatedSegment: number;
};

export const DEFAULT_TRAP_LIMITS: TrapLimits = {
  maxDepth: 40,
  maxUrlLength: 400,
  maxQueryParameters: 4,
  maxQueryVariantsPerPath: 50,
  maxPerPathShape: 1_000,
  maxRepeatedSegment: 3,
};

const sessionParameter =
  /^(?:sid|sessionid|session_id|phpsessid|jsessionid|sessid|aspsessionid\w*|cfid|cftoken|s)$/i;

/** The URL without session ids (query parameters or a `;jsessionid=` path parameter), so one page is one URL. */
export function withoutSessionIds(href: string): string {
  const url = new URL(href);
  url.pathname = url.pathname.replace(/;(?:jsessionid|sessionid|sid)=[^/]*/gi, '');
  for (const name of [...url.searchParams.keys()])
    if (sessionParameter.test(name) && (url.searchParams.get(name) ?? '').length >= 8)
      url.searchParams.delete(name);
  return url.href;
}

export type TrapGuard = {
  /** Null when the URL may be queued (and it is counted); otherwise why not. */
  check(href: string, depth: number): string | null;
};

export function createTrapGuard(limits: TrapLimits = DEFAULT_TRAP_LIMITS): TrapGuard {
  const variants = new Map<string, number>();
  const shapes = new Map<string, number>();
  return {
    check(href, depth) {
      const url = new URL(href);
      if (depth > limits.maxDepth)
        return `more than ${limits.maxDepth} links away from the home page, the blog and the sitemap (a chain of pages that link one to the next, such as an endless calendar)`;
      if (href.length > limits.maxUrlLength)
        return `the URL is longer than ${limits.maxUrlLength} characters`;
      if ([...url.searchParams.keys()].length > limits.maxQueryParameters)
        return `the URL has more than ${limits.maxQueryParameters} query parameters (a faceted or generated listing)`;
      const segments = url.pathname.split('/').filter(Boolean);
      const repeats = new Map<string, number>();
      for (const segment of segments) repeats.set(segment, (repeats.get(segment) ?? 0) + 1);
      if ([...repeats.values()].some((count) => count > limits.maxRepeatedSegment))
        return 'a path segment repeats (relative links that nest without end)';
      if (url.search) {
        const seen = variants.get(url.pathname) ?? 0;
        if (seen >= limits.maxQueryVariantsPerPath)
          return `more than ${limits.maxQueryVariantsPerPath} query variants of ${url.pathname} (pagination or filters without end)`;
        variants.set(url.pathname, seen + 1);
      }
      const shape = url.pathname.replace(/\d+/g, 'N');
      const count = shapes.get(shape) ?? 0;
      if (count >= limits.maxPerPathShape)
        return `more than ${limits.maxPerPathShape} URLs shaped ${shape} (generated pages such as a calendar)`;
      shapes.set(shape, count + 1);
      return null;
    },
  };
}
