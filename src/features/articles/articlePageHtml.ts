import type { ArticleDoc } from '../../../projections/articles.ts';
import type { ProjectDoc } from '../../../projections/projects.ts';
import type { Platform } from '../../platform.ts';
import { escapeMarkup } from '../../core/markupText.ts';
import { createArticleHtmlCache, type ArticleHtmlCache } from './articleHtmlCache.ts';

const caches = new WeakMap<Platform, ArticleHtmlCache>();

/**
 * The article page's first response holds the article's title and body, rendered and sanitized, in
 * `#prerendered-article`, which the web app takes over (docs/workspace.md, "How the article page
 * loads"). Null (the plain index.html) unless the article exists, is the account's, belongs to the
 * project the address names, that project is the account's, and it has a body: the reader must be
 * one GET /api/v1/articles/:id would answer, and every "no" looks the same.
 */
export async function articlePageHtml(
  platform: Platform,
  accountId: string,
  projectId: string,
  articleId: string,
  path: string,
): Promise<string | null> {
  const article = await platform.readStore.get<ArticleDoc>('articles', articleId);
  if (
    !article ||
    article.accountId !== accountId ||
    article.projectId !== projectId ||
    article.body === null
  )
    return null;
  const project = await platform.readStore.get<ProjectDoc>('projects', projectId);
  if (!project || project.accountId !== accountId) return null;
  let cache = caches.get(platform);
  if (!cache) caches.set(platform, (cache = createArticleHtmlCache()));
  const body = await cache.html({ id: article.id, version: article.version, body: article.body });
  return (
    `<div id="prerendered-article" data-article-id="${escapeMarkup(article.id)}" data-path="${escapeMarkup(path)}">` +
    `<main class="wide"><h1>${escapeMarkup(article.title)}</h1><div class="article-layout">` +
    `<article class="article-body" aria-label="Article text">${body}</article></div></main></div>`
  );
}
