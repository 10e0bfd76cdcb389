import type { SkippedUrl } from './types.ts';

const pageKinds = new Set<SkippedUrl['kind']>([
  'robots',
  'http_status',
  'not_html',
  'off_site',
  'error',
]);

/**
 * Why a crawl that kept no page failed, in words the site owner can act on. The most telling
 * cause wins: a robots.txt block, then errors on the home page, then HTTP errors everywhere.
 */
export function describeCrawlFailure(input: {
  homeUrl: string;
  robotsToken: string;
  skipped: readonly SkippedUrl[];
  deadlineMs: number;
  deadlinePassed: boolean;
}): string {
  const pageSkips = input.skipped.filter((skip) => pageKinds.has(skip.kind));
  const home = pageSkips.find((skip) => skip.url === input.homeUrl);
  const examples = (skips: readonly SkippedUrl[]) =>
    skips
      .slice(0, 3)
      .map((skip) => `${skip.reason} at ${skip.url}`)
      .join('; ');

  if (input.deadlinePassed) {
    const limit =
      input.deadlineMs < 10_000
        ? `${input.deadlineMs} ms`
        : `${Math.round(input.deadlineMs / 1000)} s`;
    return (
      `The crawl of ${input.homeUrl} did not finish within ${limit} and no page ` +
      'was read in that time. Check that the site answers quickly, then crawl again.'
    );
  }
  if (pageSkips.length === 0) {
    return `No page of ${input.homeUrl} could be crawled: the site links to no HTML pages we could fetch.`;
  }
  if (pageSkips.every((skip) => skip.kind === 'robots')) {
    const reason = home?.reason ?? pageSkips[0].reason;
    if (reason.startsWith('robots.txt disallows')) {
      return (
        `robots.txt of ${new URL(input.homeUrl).origin} does not allow "${input.robotsToken}" (or "*") to crawl ` +
        `the site's pages. Add "User-agent: ${input.robotsToken}" with "Allow: /" to robots.txt, then crawl again.`
      );
    }
    return reason;
  }
  if (home && home.kind === 'error') return `Could not load ${input.homeUrl}: ${home.reason}`;
  if (home && home.kind === 'off_site' && pageSkips.length === 1) return home.reason;
  if (pageSkips.every((skip) => skip.kind === 'http_status')) {
    return (
      `Every page answered with an HTTP error (${examples(pageSkips)}). Check that ${input.homeUrl} is the ` +
      'right address and that the site is up.'
    );
  }
  if (home && home.kind === 'not_html')
    return `${input.homeUrl} is ${home.reason}; enter the address of the website's home page.`;
  return `No HTML page of ${input.homeUrl} could be read (${examples(pageSkips)}).`;
}
