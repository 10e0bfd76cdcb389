import { deriveId } from '../../../core/ids.ts';
import { positionToText } from '../../../core/positions.ts';
import { streamCategory, type EventStore, type StoredEvent } from '../../../eventstore/port.ts';
import {
  ARTICLE_SOURCE_EVENTS,
  articlePublicEvents,
  type ArticleFolds,
} from './articlePayloads.ts';
import { PROJECT_SOURCE_EVENTS, projectPublicEvents } from './projectPayloads.ts';

/** The envelope every webhook delivery and the event feed carry. */
export type PublicEvent = {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
};

/** A public event with what the outbox stores beside it: its account, its order in the log, its exact bytes. */
export type OutgoingEvent = { accountId: string; seq: string; envelope: PublicEvent; body: string };

export const PUBLIC_EVENT_CATEGORIES: readonly string[] = ['article', 'project'];
export const PUBLIC_EVENT_SOURCES: readonly string[] = [
  ...ARTICLE_SOURCE_EVENTS,
  ...PROJECT_SOURCE_EVENTS,
];

/**
 * One domain event can give two public events (ArticleMerged: status_changed and published), so
 * the id is derived from the domain event id and the public type: the same on every attempt and
 * for every endpoint, and time-sortable like every other id.
 */
export function publicEventId(domainEventId: string, type: string, createdAt: string): string {
  return deriveId('evt', Date.parse(createdAt), domainEventId, type);
}

/** Log order of the feed: the domain event's position, then the public event's index within it. */
export const feedSeq = (position: bigint, index: number): string =>
  `${positionToText(position)}.${index}`;

function occurredAt(event: StoredEvent): string {
  const at = event.data.at;
  const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN;
  return new Date(Number.isNaN(ms) ? Date.parse(event.createdAt) : ms).toISOString();
}

/** The public events a domain event gives, as the bytes that will be sent; [] for the rest. */
export async function publicEventsFor(
  store: EventStore,
  event: StoredEvent,
  folds?: ArticleFolds,
): Promise<OutgoingEvent[]> {
  const category = streamCategory(event.stream);
  const mapped =
    category === 'article'
      ? await articlePublicEvents(store, event, folds)
      : category === 'project'
        ? await projectPublicEvents(store, event)
        : [];
  const createdAt = occurredAt(event);
  return mapped.map(({ type, data }, index) => {
    const envelope: PublicEvent = {
      id: publicEventId(event.id, type, createdAt),
      type,
      createdAt,
      data,
    };
    return {
      accountId: event.metadata.accountId,
      seq: feedSeq(event.position, index),
      envelope,
      body: JSON.stringify(envelope),
    };
  });
}
