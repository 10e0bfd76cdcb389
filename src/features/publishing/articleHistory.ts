import { slugOfPath, type ArticleEvent } from '../../domain/articles/article.ts';
import type { StoredEvent } from '../../eventstore/port.ts';

/** What the publisher reads back from an article's stream beyond its folded state. */

const typed = (events: readonly StoredEvent[]) =>
  events as unknown as readonly (ArticleEvent & { id: string })[];

/** The event that started the current publication: the last publish request, or a retry of a failed one. */
export function publishTrigger(events: readonly StoredEvent[]): StoredEvent | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = typed(events)[i];
    if (
      event.type === 'ArticlePublishRequested' ||
      (event.type === 'ArticleRetried' && event.data.step === 'publishing')
    )
      return events[i];
  }
  return null;
}

export function publishPurpose(events: readonly StoredEvent[]): 'publish' | 'refresh' {
  const request = typed(events).findLast((event) => event.type === 'ArticlePublishRequested');
  return request?.type === 'ArticlePublishRequested' ? request.data.purpose : 'publish';
}

/** The target chosen for the current publication (after its request, so a retry reuses it, a refresh does not). */
export function chosenTarget(
  events: readonly StoredEvent[],
): { slug: string; path: string; branch: string | null } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = typed(events)[i];
    if (event.type === 'ArticlePublishRequested') return null;
    if (event.type === 'ArticlePublishTargetChosen')
      return { slug: event.data.slug, path: event.data.path, branch: event.data.branch };
  }
  return null;
}

/**
 * The slug an article was committed under at `path`: the one recorded with that path when its
 * target was chosen (a folder-per-post `x/index.md` is the slug `x`, not `index`), else read from
 * the path for articles recorded before targets carried it.
 */
export function committedSlug(events: readonly StoredEvent[], path: string): string {
  const chosen = typed(events).findLast(
    (event) => event.type === 'ArticlePublishTargetChosen' && event.data.path === path,
  );
  return chosen?.type === 'ArticlePublishTargetChosen' ? chosen.data.slug : slugOfPath(path);
}

export function revisionRecord(events: readonly StoredEvent[], revisionId: string) {
  const list = typed(events);
  const requested = list.find(
    (event) => event.type === 'ArticleRevisionRequested' && event.data.revisionId === revisionId,
  );
  const revised = list.find(
    (event) => event.type === 'ArticleRevised' && event.data.revisionId === revisionId,
  );
  const committed = list.some(
    (event) => event.type === 'ArticleRevisionCommitted' && event.data.revisionId === revisionId,
  );
  const failed = list.find(
    (event) => event.type === 'ArticleRevisionFailed' && event.data.revisionId === revisionId,
  );
  return {
    requested: requested?.type === 'ArticleRevisionRequested' ? requested.data : null,
    revised: revised?.type === 'ArticleRevised' ? revised.data : null,
    failed: failed?.type === 'ArticleRevisionFailed' ? failed.data : null,
    committed,
  };
}
