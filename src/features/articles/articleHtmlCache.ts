import { renderArticleBodyHtml } from './articleBodyHtml.ts';

/** Rendered bodies kept per process (docs/memory.md): at most this many, and at most this many characters together. */
export const ARTICLE_HTML_CACHE_ENTRIES = 500;
export const ARTICLE_HTML_CACHE_CHARS = 16 * 1024 * 1024;

export type ArticleHtmlCache = {
  html(article: { id: string; version: number; body: string }): Promise<string>;
  readonly size: number;
};

/**
 * Sanitized HTML of article bodies, keyed by article and version: a version's body never changes,
 * so an entry is exact for as long as it is kept. Least recently used dropped first.
 */
export function createArticleHtmlCache(
  maxEntries = ARTICLE_HTML_CACHE_ENTRIES,
  maxChars = ARTICLE_HTML_CACHE_CHARS,
): ArticleHtmlCache {
  const entries = new Map<string, string>();
  let chars = 0;
  const forget = (key: string) => {
    chars -= entries.get(key)?.length ?? 0;
    entries.delete(key);
  };
  return {
    get size() {
      return entries.size;
    },
    async html({ id, version, body }) {
      const key = `${id}@${version}`;
      const known = entries.get(key);
      if (known !== undefined) {
        entries.delete(key);
        entries.set(key, known);
        return known;
      }
      const html = await renderArticleBodyHtml(body);
      if (html.length > maxChars) return html;
      forget(key);
      while (entries.size >= maxEntries || (entries.size > 0 && chars + html.length > maxChars))
        forget(entries.keys().next().value!);
      entries.set(key, html);
      chars += html.length;
      return html;
    },
  };
}
