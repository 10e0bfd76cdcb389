import type { Article } from './articleApi.ts';

/**
 * The article the server rendered into the page's first response (`#prerendered-article`, beside
 * the app's root: docs/workspace.md, "How the article page loads"). It stays on screen, in place of
 * "Loading…", until the article page renders its own body (with its marks, links and actions) in
 * the same commit that removes it; any other outcome (signed out, another page, an error) removes it.
 */
const node = document.getElementById('prerendered-article');

/** The id of the article shown prerendered, while it is shown. */
export function prerenderedArticleId(): string | null {
  return node?.isConnected ? (node.dataset.articleId ?? null) : null;
}

/** Whether the prerendered article is the page at this path. */
export const prerenderedAt = (path: string): boolean =>
  Boolean(node?.isConnected && node.dataset.path === path);

/** Which block of the prerendered body is at the top of the window, and where: read while rendering, before React changes the page. */
export type Anchor = { index: number; top: number } | null;

export function prerenderedAnchor(): Anchor {
  if (!node?.isConnected) return null;
  const blocks = [...node.querySelectorAll('.article-body > *')];
  const index = blocks.findIndex((block) => block.getBoundingClientRect().bottom > 0);
  return index === -1 ? null : { index, top: blocks[index].getBoundingClientRect().top };
}

/**
 * Removes the prerendered article. Given the page's own body, which has the same blocks (the
 * server and the browser render alike: test/features/articles/articleBodyHtml.unit.test.ts), the
 * window is scrolled so the block the reader had at the top stays where it was: the page's bar,
 * status and actions appear above it without moving the text.
 */
export function dropPrerendered(anchor: Anchor = null, ownBody: Element | null = null): void {
  if (!node?.isConnected) return;
  node.remove();
  const block =
    anchor && ownBody
      ? [...ownBody.children].filter((child) => !child.classList.contains('cover'))[anchor.index]
      : undefined;
  if (block) window.scrollBy(0, block.getBoundingClientRect().top - anchor!.top);
}

/** The article read as the tab opened, once it has arrived: the page's first render takes it, so its body replaces the prerendered one at once. */
let arrived: Article | null = null;

export function keepArrivedArticle(article: Article): void {
  if (prerenderedArticleId() === article.id) arrived = article;
}

export function arrivedArticle(articleId: string): Article | undefined {
  return arrived?.id === articleId ? arrived : undefined;
}

export function forgetArrivedArticle(): void {
  arrived = null;
}
