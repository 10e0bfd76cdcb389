import type { components } from '../api/v1.ts';
import { api, unwrap } from '../api/v1Client.ts';

export type Article = components['schemas']['Article'];
export type QualityCheck = components['schemas']['QualityCheck'];
export type ArticleStatus = Article['status'];

/** The article now, or as it was at a step of its history (replayed by the server: GET /articles/:id?at=). */
export async function loadArticle(id: string, at?: number): Promise<Article> {
  const query = at === undefined ? {} : { at: String(at) };
  return (await unwrap(api.GET('/articles/{id}', { params: { path: { id }, query } }))).article;
}

/**
 * Which operation each state allows: the contract's transition table as the domain keeps it
 * (src/domain/articles/article.ts `allowedFrom`). The buttons follow it; the server refuses the
 * rest anyway (409).
 */
export const allowedFrom = {
  approve: ['draft'],
  revise: ['draft', 'pr_open'],
  refresh: ['merged'],
  retry: ['failed'],
} as const satisfies Record<string, readonly ArticleStatus[]>;

export const allows = (operation: keyof typeof allowedFrom, status: ArticleStatus): boolean =>
  (allowedFrom[operation] as readonly ArticleStatus[]).includes(status);
