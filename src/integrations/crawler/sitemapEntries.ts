import { gunzipSync } from 'node:zlib';

export type SitemapEntry = { loc: string; lastmod?: string };
export type SitemapFile = { kind: 'index' | 'urlset'; entries: Iterable<SitemapEntry> };

const decodeXml = (value: string) =>
  value
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

const gunzipBounded = (raw: Buffer, maxBytes: number): { bytes: Buffer; cut: boolean } => {
  try {
    return { bytes: gunzipSync(raw, { maxOutputLength: maxBytes }), cut: false };
  } catch {
    // Over the bound (a compressed bomb) or damaged: nothing of it is read.
    return { bytes: Buffer.alloc(0), cut: true };
  }
};

/**
 * A sitemap (sitemaps.org) read without building a document: a <urlset> of pages with their
 * <lastmod>, a <sitemapindex> of further sitemaps, or a plain-text list of URLs. The entries are
 * produced one by one while the caller wants them, so a file of a million URLs costs its bytes
 * (bounded by the request's cap) and no more. A gzipped file unpacks to at most `maxBytes`;
 * beyond that it reads as empty and `cut` says why.
 */
export function readSitemap(raw: Buffer, maxBytes: number): SitemapFile & { cut: boolean } {
  const gzipped = raw[0] === 0x1f && raw[1] === 0x8b;
  const { bytes, cut } = gzipped ? gunzipBounded(raw, maxBytes) : { bytes: raw, cut: false };
  const text = bytes.toString('utf8');
  const isIndex = /<(?:[\w-]+:)?sitemapindex\b/.test(text.slice(0, 4096));
  const isXml = isIndex || /<(?:[\w-]+:)?urlset\b/.test(text.slice(0, 4096));
  if (!isXml) {
    return {
      kind: 'urlset',
      cut,
      entries: (function* () {
        for (const match of text.matchAll(/https?:\/\/\S+/g)) yield { loc: match[0] };
      })(),
    };
  }
  const block = isIndex ? 'sitemap' : 'url';
  const blockPattern = new RegExp(
    `<(?:[\\w-]+:)?${block}\\b[^>]*>([\\s\\S]*?)</(?:[\\w-]+:)?${block}>`,
    'g',
  );
  return {
    kind: isIndex ? 'index' : 'urlset',
    cut,
    entries: (function* () {
      for (const match of text.matchAll(blockPattern)) {
        const loc = /<(?:[\w-]+:)?loc\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?loc>/.exec(match[1]);
        if (!loc) continue;
        const lastmod = /<(?:[\w-]+:)?lastmod\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?lastmod>/.exec(
          match[1],
        );
        yield {
          loc: decodeXml(loc[1]),
          ...(lastmod ? { lastmod: decodeXml(lastmod[1]).slice(0, 40) } : {}),
        };
      }
    })(),
  };
}
