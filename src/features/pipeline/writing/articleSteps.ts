import type { ActiveArticle, ArticleEvent } from '../../../domain/articles/article.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import type { Research } from '../../../integrations/llm/writer.ts';

export type WriteStep = 'start' | 'research' | 'write';

/**
 * The step an article waits for, read from its stream; null when none (done, failed, published).
 * A refresh stays in `writing` after its draft (the publisher opens the PR from there), so its
 * write step is done once a refresh draft follows the last refresh request.
 */
export function pendingStep(
  article: ActiveArticle,
  events: readonly StoredEvent[],
): WriteStep | null {
  switch (article.status) {
    case 'queued':
      return 'start';
    case 'researching':
      return 'research';
    case 'writing':
      return article.purpose === 'refresh' && refreshDrafted(events) ? null : 'write';
    default:
      return null;
  }
}

function refreshDrafted(events: readonly StoredEvent[]): boolean {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as unknown as ArticleEvent;
    if (event.type === 'ArticleDrafted' && event.data.purpose === 'refresh') return true;
    if (event.type === 'ArticleRefreshRequested') return false;
  }
  return false;
}

/** The research the write step builds on: the latest recorded one (the state keeps no key points). */
export function latestResearch(events: readonly StoredEvent[]): Research | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as unknown as ArticleEvent;
    if (event.type === 'ArticleResearched') {
      const { outline, keyPoints, sources, evidence = [] } = event.data;
      return { outline, keyPoints, sources, evidence };
    }
  }
  return null;
}
