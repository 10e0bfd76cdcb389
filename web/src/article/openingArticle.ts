import { sessionAtStart } from '../api/appClient.ts';
import { loadArticle, type Article } from './articleApi.ts';
import { keepArrivedArticle, prerenderedArticleId } from './prerendered.ts';

/**
 * The article a tab opens at, asked for as the app starts instead of once the page's chunk has
 * loaded and run: lazyPage calls `prefetchOpeningArticle` when the address is the article page's.
 * It waits for the session check (the access token needs its CSRF token), then reads the article
 * while the chunk is still on its way. The page takes that answer once, for its first render;
 * every later read (after an action, a live change, or coming back to the page) asks the server.
 * When the server prerendered the article, the app's first render of the page waits for this read
 * too (the promise returned to lazyPage), so the page replaces the prerendered body with its own in
 * one commit instead of showing "Loading the article…" over it.
 */
let opening: { articleId: string; article: Promise<Article> } | null = null;

export function prefetchOpeningArticle(
  params: Record<string, string>,
): Promise<unknown> | undefined {
  const article = sessionAtStart().then(() => loadArticle(params.articleId));
  const settled = article.then(keepArrivedArticle, () => undefined); // a failure is the page's to show, when it asks again (takeOpeningArticle)
  opening = { articleId: params.articleId, article };
  return prerenderedArticleId() === params.articleId ? settled : undefined;
}

/** The article read at start, once; a read that failed (e.g. signed out then, signed in since) is asked again. */
export function takeOpeningArticle(articleId: string): Promise<Article> | null {
  if (opening?.articleId !== articleId) return null;
  const { article } = opening;
  opening = null;
  return article.catch(() => loadArticle(articleId));
}
