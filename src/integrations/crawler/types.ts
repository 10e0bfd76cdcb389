import type { SafeHttpClient } from '../safeHttp/index.ts';

/** The crawler only needs to send requests; pass the SSRF-guarded client. */
export type HttpFetcher = Pick<SafeHttpClient, 'request'>;

export type CrawlInput = {
  websiteUrl: string;
  blogUrl?: string;
  sitemapUrl?: string;
  /** Most HTML pages kept (default 25, at most 200). */
  pageCap?: number;
  /** Requests in flight at once (default 3, clamped to 1–4). */
  concurrency?: number;
  /** Per request, including redirects and body (default 10 s). */
  requestTimeoutMs?: number;
  /** Per HTML page; longer pages are cut, not refused (default 2 MiB). */
  maxPageBytes?: number;
  /** The whole crawl; in-flight requests are cancelled when it passes (default 120 s). */
  deadlineMs?: number;
  /** The product token matched against robots.txt User-agent lines (default "Inkstream"). */
  robotsToken?: string;
};

export type Heading = { level: 1 | 2 | 3 | 4 | 5 | 6; text: string };
export type PageLink = { text: string; url: string };

export type CrawledPage = {
  /** The URL that answered (after redirects), without fragment. */
  url: string;
  status: number;
  /** From <html lang>, e.g. "en-GB". */
  lang?: string;
  title: string;
  description?: string;
  /** <meta name="theme-color">, as written in the page. */
  themeColor?: string;
  /** og:site_name or application-name. */
  siteName?: string;
  /** Headings of the main content, in document order. */
  headings: Heading[];
  /** Main text without navigation, footer, scripts and styles: one block (paragraph, item, heading) per line. */
  text: string;
  /**
   * The readable content as Markdown (headings, lists, tables kept; bylines, share bars, comments
   * and hidden elements dropped by a readability pass), escaped so MDX reads it as text only.
   */
  markdown: string;
  /** Footer text, kept apart: it often holds the address and the founding year. */
  footerText: string;
  /** Blockquotes and testimonial blocks. */
  quotes: string[];
  /** Same-site links in the navigation (nav, header). */
  navLinks: PageLink[];
  /** Every same-site link, absolute, without fragment, deduplicated. */
  links: string[];
  /** Same-site <link rel="stylesheet"> targets, absolute. */
  stylesheetUrls: string[];
  /** <style> blocks and style="" attributes. */
  inlineCss: string;
};

export type Stylesheet = { url: string; css: string };

export type SkipKind =
  | 'robots'
  | 'http_status'
  | 'not_html'
  | 'off_site'
  | 'error'
  | 'sitemap'
  | 'stylesheet';
export type SkippedUrl = { url: string; kind: SkipKind; reason: string };

export type CrawlResult = {
  pages: CrawledPage[];
  /** Same-site stylesheets the pages link, most used first (capped). */
  stylesheets: Stylesheet[];
  skipped: SkippedUrl[];
  /** Same-site page URLs the sitemaps list (at most 1,000), crawled or not. */
  sitemapUrls?: string[];
  /** Set when no page could be read: says why, in words a site owner can act on. */
  failure?: string;
};
