import { articles, type ArticleDoc } from '../../projections/articles.ts';
import type { ArticleEvent } from '../articles/article.ts';
import { presentArticle } from '../articles/schemas.ts';
import type { EventStore, StoredEvent } from '../eventstore/port.ts';
import { streamUpTo } from './streamAt.ts';

/** Every article event that can move the article to another status. */
export const ARTICLE_STATUS_EVENTS: ReadonlySet<string> = new Set<ArticleEvent['type']>([
  'ArticleQueued', 'ArticleResearchStarted', 'ArticleResearched', 'ArticleDrafted', 'ArticleFailed', 'ArticleRetried',
  'ArticlePublishRequested', 'ArticlePullRequestOpened', 'ArticleMerged', 'ArticleClosed', 'ArticleRefreshRequested',
]);

export const ARTICLE_SOURCE_EVENTS: readonly string[] = [...ARTICLE_STATUS_EVENTS, 'ArticleRevised'];

/** The article as GET /articles/:id shows it, with the status it left. */
export function articlePayload(doc: ArticleDoc, previousStatus: string | null): Record<string, unknown> {
  const { id, status, ...rest } = presentArticle(doc);
  return { id, status, previousStatus, ...rest };
}

/**
 * The public events of one article event, with the article folded from its stream up to that
 * event (with the read model's own projection), so a late delivery still shows that moment.
 */
export async function articlePublicEvents(store: EventStore, event: StoredEvent): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const history = await streamUpTo(store, event);
  let previous: ArticleDoc | null = null;
  for (const earlier of history.slice(0, -1)) previous = articles.evolve(previous, earlier);
  const current = articles.evolve(previous, event);
  if (!current) return [];
  const payload = articlePayload(current, previous?.status ?? null);
  const out: { type: string; data: Record<string, unknown> }[] = [];
  if (ARTICLE_STATUS_EVENTS.has(event.type) && current.status !== previous?.status) out.push({ type: 'article.status_changed', data: payload });
  if (event.type === 'ArticleMerged') out.push({ type: 'article.published', data: payload });
  if (event.type === 'ArticleRevised') {
    const revised = event as unknown as Extract<ArticleEvent, { type: 'ArticleRevised' }>;
    const { revisionId, version, summary, diff } = revised.data;
    out.push({ type: 'article.revised', data: { ...payload, revision: { id: revisionId, version, summary, diff } } });
  }
  return out;
}
