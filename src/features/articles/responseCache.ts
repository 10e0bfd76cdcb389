import type { Platform } from '../../platform.ts';

/** Full articles (MDX, frontmatter, body) are the heaviest reads; this many stay serialized per process. */
export const ARTICLE_RESPONSE_CACHE_ENTRIES = 1000;

type Entry = { head: bigint; accountId: string; json: Buffer };

/**
 * Serialized `GET /articles/:id` responses. An article is built only from the log, so a response
 * read when the read models had reached head H is still exact for any request that sees head H:
 * the first event appended anywhere (by any process) makes every entry miss.
 */
export type ArticleResponseCache = {
  get(
    articleId: string,
    accountId: string,
    consistency: { head: bigint; readModelsCurrent: boolean },
  ): Buffer | null;
  set(
    articleId: string,
    accountId: string,
    consistency: { head: bigint; readModelsCurrent: boolean },
    json: Buffer,
  ): void;
};

const caches = new WeakMap<Platform, ArticleResponseCache>();

export function articleResponseCache(platform: Platform): ArticleResponseCache {
  let cache = caches.get(platform);
  if (!cache) {
    cache = createArticleResponseCache(ARTICLE_RESPONSE_CACHE_ENTRIES);
    caches.set(platform, cache);
  }
  return cache;
}

export function createArticleResponseCache(maxEntries: number): ArticleResponseCache {
  const entries = new Map<string, Entry>();
  return {
    get(articleId, accountId, { head, readModelsCurrent }) {
      const entry = entries.get(articleId);
      return readModelsCurrent && entry && entry.head === head && entry.accountId === accountId
        ? entry.json
        : null;
    },
    set(articleId, accountId, { head, readModelsCurrent }, json) {
      if (!readModelsCurrent) return;
      entries.delete(articleId);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(articleId, { head, accountId, json });
    },
  };
}
