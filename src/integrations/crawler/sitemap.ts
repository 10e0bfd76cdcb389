import { gunzipSync } from 'node:zlib';
import * as cheerio from 'cheerio';

export type ParsedSitemap = { kind: 'index' | 'urlset'; locations: string[] };

/**
 * Reads a sitemap (sitemaps.org): a <urlset> of pages, a <sitemapindex> of further sitemaps, or a
 * plain-text list of URLs. Gzipped files (.xml.gz served as a file, not as a content encoding)
 * are unpacked when they stay under `maxBytes`; bigger ones read as empty.
 */
export function parseSitemap(raw: Buffer, maxBytes = 10 * 1024 * 1024): ParsedSitemap {
  const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSafely(raw, maxBytes) : raw;
  const text = bytes.toString('utf8');
  if (!/<(?:[\w-]+:)?(?:urlset|sitemapindex)\b/.test(text)) {
    return {
      kind: 'urlset',
      locations: text.split(/\s+/).filter((line) => /^https?:\/\//.test(line)),
    };
  }
  const $ = cheerio.load(text, { xml: true });
  const locs = (selector: string) =>
    $(selector)
      .map((_, el) => $(el).text().trim())
      .get()
      .filter(Boolean);
  const index = locs('sitemapindex > sitemap > loc');
  if (index.length > 0) return { kind: 'index', locations: index };
  return { kind: 'urlset', locations: locs('urlset > url > loc') };
}

const gunzipSafely = (raw: Buffer, maxBytes: number): Buffer => {
  try {
    return gunzipSync(raw, { maxOutputLength: maxBytes });
  } catch {
    return Buffer.alloc(0);
  }
};
