import type { EventStore, StoredEvent } from '../../eventstore/port.ts';
import { createArticleFolds } from '../webhooks/feed/articlePayloads.ts';
import { PUBLIC_EVENT_SOURCES, publicEventsFor } from '../webhooks/feed/publicEvents.ts';
import { toHistoryEntry, type HistoryEntry } from './timeline.ts';

const SOURCES = new Set(PUBLIC_EVENT_SOURCES);

/**
 * History entries of consecutive events of one stream, each with the ids of the public events
 * (webhook deliveries, the feed) it gave. The ids are derived exactly as the outbox derives them,
 * from the stored event and the article as it was then, so the two records join without a lookup.
 */
export async function historyEntries(
  store: EventStore,
  events: readonly StoredEvent[],
): Promise<HistoryEntry[]> {
  const folds = createArticleFolds(1); // one stream: only its latest fold is ever needed
  const entries: HistoryEntry[] = [];
  for (const event of events) {
    if (!SOURCES.has(event.type)) {
      if (event.stream.startsWith('article-')) folds.advance(event);
      entries.push(toHistoryEntry(event, []));
      continue;
    }
    const published = await publicEventsFor(store, event, folds);
    entries.push(
      toHistoryEntry(
        event,
        published.map((outgoing) => outgoing.envelope.id),
      ),
    );
  }
  return entries;
}
