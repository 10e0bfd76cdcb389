import * as cheerio from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { blockText, cleanLine } from './pageText.ts';
import { normalizePageUrl } from './siteScope.ts';
import type { CrawledPage, Heading, PageLink } from './types.ts';

const MAX_INLINE_CSS = 200_000;
const noise =
  'script, style, noscript, template, svg, iframe, canvas, [hidden], [aria-hidden="true"]';
const chrome =
  'nav, [role="navigation"], footer, [role="contentinfo"], header:has(nav), [role="banner"]';

export type ParseInput = {
  url: string;
  status: number;
  html: Buffer;
  /** The charset from the Content-Type header, if any; otherwise it is sniffed from the document. */
  charset?: string;
  inScope(url: string): boolean;
};

/** The decoded document, without scripts, navigation and footer, comes along for the readability pass. */
export type ParsedPage = Omit<CrawledPage, 'markdown'> & {
  followLinks: boolean;
  documentHtml: string;
};

/** Everything the crawler and the brand learner need from one HTML page. */
export function parsePage(input: ParseInput): ParsedPage {
  const $ = cheerio.loadBuffer(input.html, {
    encoding: { transportLayerEncodingLabel: input.charset },
  });
  const base = normalizePageUrl($('base[href]').attr('href') ?? '', input.url) ?? input.url;
  const resolve = (href: string | undefined) => (href ? normalizePageUrl(href, base) : null);
  const sameSite = (href: string | undefined) => {
    const url = resolve(href);
    return url && input.inScope(url) ? url : null;
  };
  const meta = (selector: string) =>
    cleanLine($(selector).first().attr('content') ?? '') || undefined;

  const links = unique(
    $('a[href]')
      .map((_, a) => sameSite($(a).attr('href')))
      .get(),
  );
  const navLinks = uniqueBy(
    $(`nav a[href], [role="navigation"] a[href], header a[href]`)
      .map((_, a) => {
        const url = sameSite($(a).attr('href'));
        const text = cleanLine($(a).text());
        return url && text ? [{ text, url }] : [];
      })
      .get() as PageLink[],
    (link) => link.url,
  );
  const stylesheetUrls = unique(
    $('link[href]')
      .filter((_, el) => {
        const rel = ($(el).attr('rel') ?? '').toLowerCase().split(/\s+/);
        return (
          rel.includes('stylesheet') &&
          !rel.includes('alternate') &&
          $(el).attr('media') !== 'print'
        );
      })
      .map((_, el) => sameSite($(el).attr('href')))
      .get(),
  );
  const inlineCss = [
    ...$('style')
      .map((_, el) => $(el).text())
      .get(),
    ...$('[style]')
      .map((_, el) => `[style]{${$(el).attr('style')}}`)
      .get(),
  ]
    .join('\n')
    .slice(0, MAX_INLINE_CSS);
  const footerText = blockText($('footer, [role="contentinfo"]').toArray(), 3_000);
  const robotsMeta = (meta('meta[name="robots" i]') ?? '').toLowerCase();

  $(noise).remove();
  $(chrome).remove();
  // Readability finds the article in what is left; on a page that is mostly links (a blog index)
  // it would otherwise take the footer for the content.
  const documentHtml = $.html();
  const mainRoot = $('main, [role="main"]').first();
  const root = mainRoot.length > 0 ? mainRoot : $('body');

  return {
    url: input.url,
    status: input.status,
    lang: $('html').attr('lang')?.trim() || undefined,
    title: cleanLine($('title').first().text()),
    description: meta('meta[name="description" i]') ?? meta('meta[property="og:description"]'),
    themeColor: themeColor($),
    siteName: meta('meta[property="og:site_name"]') ?? meta('meta[name="application-name" i]'),
    headings: headings($, root),
    text: blockText(root.toArray()),
    footerText,
    quotes: quotes($, root),
    navLinks,
    links,
    stylesheetUrls,
    inlineCss,
    documentHtml,
    followLinks: !robotsMeta.includes('nofollow') && !robotsMeta.includes('none'),
  };
}

function themeColor($: CheerioAPI): string | undefined {
  const candidates = $('meta[name="theme-color" i]').toArray();
  const preferred =
    candidates.find((el) => !/dark/i.test($(el).attr('media') ?? '')) ?? candidates[0];
  return preferred ? cleanLine($(preferred).attr('content') ?? '') || undefined : undefined;
}

function headings($: CheerioAPI, root: ReturnType<CheerioAPI>): Heading[] {
  return root
    .find('h1, h2, h3, h4, h5, h6')
    .map((_, el) => {
      const text = cleanLine($(el).text());
      return text ? [{ level: Number(el.tagName.slice(1)) as Heading['level'], text }] : [];
    })
    .get() as Heading[];
}

function quotes($: CheerioAPI, root: ReturnType<CheerioAPI>): string[] {
  const blocks = root.find('blockquote, [class*="testimonial" i], [class*="review" i], q');
  // A testimonial card that wraps a blockquote would otherwise count twice.
  const outermost = blocks.filter(
    (_, el) =>
      $(el)
        .parents()
        .filter((__, p) => blocks.is(p)).length === 0,
  );
  return unique(
    outermost
      .map((_, el) => cleanLine(blockText([el], 600).replace(/\n/g, ' ')))
      .get()
      .filter((text) => text.length >= 20 && text.length <= 600),
  );
}

const unique = <T>(items: Array<T | null>): T[] => [
  ...new Set(items.filter((item): item is T => item !== null)),
];

function uniqueBy<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && Boolean(seen.add(key(item))));
}
