import type { ReadStore } from '../../readstore/port.ts';
import { removeOldest } from '../../readstore/removeOldest.ts';
import {
  ATTEMPT_STATS,
  DELIVERIES,
  ensureWebhookCollections,
  PUBLIC_EVENTS,
  type FeedDoc,
} from './collections.ts';
import type { AttemptStatsDoc } from './delivery/attemptStats.ts';
import type { DeliveryDoc } from './delivery/delivery.ts';

/** How long a finished delivery stays in the log, an event in the feed, and an hour of attempt counts. */
export const WEBHOOK_RETENTION_MS = 30 * 24 * 3_600_000;

/**
 * Trims the delivery log and the event feed. A delivery goes once it has been finished
 * (succeeded or failed) for the window; a pending or retrying one never does. A feed row goes once
 * it is older than the window and no delivery is left that sends its bytes; an hour of attempt
 * counts, once the hour is older than the window. All three walk their ids,
 * which start with the creation time, so the pass reads only what has aged out.
 */
export async function pruneWebhookHistory(
  readStore: ReadStore,
  nowMs: number,
): Promise<{ deliveries: number; events: number; attemptHours: number }> {
  await ensureWebhookCollections(readStore);
  const cutoff = new Date(nowMs - WEBHOOK_RETENTION_MS).toISOString();
  const deliveries = await removeOldest<DeliveryDoc>(readStore, DELIVERIES, {
    sortField: 'id',
    isOld: (doc) => doc.createdAt < cutoff,
    keep: (doc) => doc.status === 'pending' || doc.status === 'retrying' || doc.updatedAt >= cutoff,
  });
  const events = await removeOldest<FeedDoc>(readStore, PUBLIC_EVENTS, {
    sortField: 'id',
    isOld: (doc) => doc.createdAt < cutoff,
    keep: async (doc) => (await readStore.count(DELIVERIES, { eventId: doc.id })) > 0,
  });
  const attemptHours = await removeOldest<AttemptStatsDoc>(readStore, ATTEMPT_STATS, {
    sortField: 'id',
    isOld: (doc) => doc.hour < cutoff,
  });
  return { deliveries, events, attemptHours };
}
