import { articles, type ArticleDoc } from '../../../../projections/articles.ts';
import type { ArticleEvent } from '../../../domain/articles/article.ts';
import { presentArticle } from '../../articles/schemas.ts';
import type { EventStore, StoredEvent } from '../../../eventstore/port.ts';
import { streamUpTo } from './streamAt.ts';

/** Every article event that can move the article to another status. */
export const ARTICLE_STATUS_EVENTS: ReadonlySet<string> = new Set<ArticleEvent['type']>([
  'ArticleQueued',
  'ArticleResearchStarted',
  'ArticleResearched',
  'ArticleDrafted',
  'ArticleFailed',
  'ArticleRetried',
  'ArticlePublishRequested',
  'ArticlePullRequestOpened',
  'ArticleMerged',
  'ArticleClosed',
  'ArticleRefreshRequested',
]);

export const ARTICLE_SOURCE_EVENTS: readonly string[] = [
  ...ARTICLE_STATUS_EVENTS,
  'ArticleRevised',
];

/** The article as GET /articles/:id shows it, with the status it left. */
export function articlePayload(
  doc: ArticleDoc,
  previousStatus: string | null,
): Record<string, unknown> {
  const { id, status, ...rest } = presentArticle(doc);
  return { id, status, previousStatus, ...rest };
}

/**
 * The article just before each event, folded with the read model's own projection. The outbox
 * reads events in log order, so the fold of a stream's previous event is usually at hand; only
 * when it is not (a restart, an evicted stream) is the stream read again up to the event.
 */
export function createArticleFolds(capacity = 2_000) {
  const folded = new Map<string, { revision: bigint; doc: ArticleDoc | null }>();
  return {
    async before(store: EventStore, event: StoredEvent): Promise<ArticleDoc | null> {
      const cached = folded.get(event.stream);
      if (cached && cached.revision === event.revision - 1n) return cached.doc;
      if (event.revision === 0n) return null;
      const history = await streamUpTo(store, event);
      return history
        .slice(0, -1)
        .reduce<ArticleDoc | null>((doc, earlier) => articles.evolve(doc, earlier), null);
    },
    /** An article event that publishes nothing still moves the fold on, so the next one finds it. */
    advance(event: StoredEvent): void {
      const cached = folded.get(event.stream);
      if (cached && cached.revision === event.revision - 1n)
        this.remember(event, articles.evolve(cached.doc, event));
    },
    remember(event: StoredEvent, doc: ArticleDoc | null): void {
      folded.delete(event.stream);
      folded.set(event.stream, { revision: event.revision, doc });
      if (folded.size > capacity) folded.delete(folded.keys().next().value!);
    },
  };
}

export type ArticleFolds = ReturnType<typeof createArticleFolds>;

/**
 * The public events of one article event, with the article as it was at that event (not as it is
 * now), so a late delivery still shows that moment.
 */
export async function articlePublicEvents(
  store: EventStore,
  event: StoredEvent,
  folds: ArticleFolds = createArticleFolds(),
): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const previous = await folds.before(store, event);
  const current = articles.evolve(previous, event);
  folds.remember(event, current);
  if (!current) return [];
  const payload = articlePayload(current, previous?.status ?? null);
  const out: { type: string; data: Record<string, unknown> }[] = [];
  if (ARTICLE_STATUS_EVENTS.has(event.type) && current.status !== previous?.status)
    out.push({ type: 'article.status_changed', data: payload });
  if (event.type === 'ArticleMerged') out.push({ type: 'article.published', data: payload });
  if (event.type === 'ArticleRevised') {
    const revised = event as unknown as Extract<ArticleEvent, { type: 'ArticleRevised' }>;
    const { revisionId, version, summary, diff } = revised.data;
    out.push({
      type: 'article.revised',
      data: { ...payload, revision: { id: revisionId, version, summary, diff } },
    });
  }
  return out;
}
