import type { CollectionSpec } from '../../readstore/port.ts';
import { collectionsDeclaredOnce } from '../../readstore/ensureOnce.ts';

/**
 * State the webhook feature keeps beside the read models. None of it is a projection: the outbox
 * consumer writes deliveries and the event feed with its checkpoint, the dispatcher writes
 * attempts, endpoint health and what is in flight. A read-model rebuild leaves them alone.
 */
export const DELIVERIES = 'webhook_deliveries';
export const PUBLIC_EVENTS = 'public_events';
export const ENDPOINT_HEALTH = 'webhook_health';
export const IN_FLIGHT = 'webhook_in_flight';
/** Attempts per endpoint and hour, for the success-rate chart (delivery/attemptStats.ts). */
export const ATTEMPT_STATS = 'webhook_attempt_stats';

/** A row of the event feed: the exact bytes of one public event, for every endpoint and for GET /events. */
export type FeedDoc = {
  id: string;
  accountId: string;
  type: string;
  seq: string;
  createdAt: string;
  body: string;
};

export const WEBHOOK_COLLECTIONS: readonly CollectionSpec[] = [
  // eventId: the retention job keeps a feed row while a delivery still sends its bytes.
  // The delivery log (an endpoint's, newest id first, by status, event type, both or neither) and each endpoint's queue by due time.
  {
    name: DELIVERIES,
    indexes: [
      'endpointId',
      { endpointId: 1, status: 1 },
      { queue: 1, due: 1 },
      'eventId',
      { endpointId: 1, eventType: 1 },
      { endpointId: 1, eventType: 1, status: 1 },
    ],
  },
  // The event feed: an account's events in order, of one type or all.
  {
    name: PUBLIC_EVENTS,
    indexes: [
      { accountId: 1, seq: 1 },
      { accountId: 1, type: 1, seq: 1 },
    ],
  },
  { name: ENDPOINT_HEALTH, indexes: [] },
  { name: IN_FLIGHT, indexes: [] },
  // An endpoint's hours, newest first: a chart reads at most one row per hour of its window.
  { name: ATTEMPT_STATS, indexes: [{ endpointId: 1, hour: -1 }] },
];

/** Declares the collections once per store; every user (consumer, dispatcher, routes) awaits it. */
export const ensureWebhookCollections = collectionsDeclaredOnce(WEBHOOK_COLLECTIONS);
