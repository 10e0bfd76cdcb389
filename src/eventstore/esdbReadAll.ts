import {
  BACKWARDS,
  END,
  FORWARDS,
  START,
  streamNameFilter,
  type AllStreamRecordedEvent,
  type AllStreamResolvedEvent,
  type EventStoreDBClient,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import { streamCategory } from './port.ts';
import type { ReadAllRequest } from './readOptions.ts';

/*
 * Reading $all with the category filter applied by the server. Client 6.x's readAll sends no
 * filter (it always sets NoFilter); subscribeToAll does, so a read is a filtered catch-up
 * subscription, stopped once it has passed the newest event the log had when the read began.
 *
 * Positions are taken exactly as $all reports them. Every event appended over gRPC is its own
 * committed record, reported as { commit, prepare } = that record's offset (the server's
 * AllReader), and an append's result reports the same offset for its last event (the server's
 * WriteEvents request manager answers CommitPosition for both). Our bigint position is that
 * offset: strictly increasing, never gapless. A subscription starts AFTER the event at its
 * `fromPosition` (the server skips the first event at or after it), so the read first looks up
 * the event at or after `after` and starts the subscription from that event's own position.
 */

const HEAD_PAGE = 100;

/** Up to maxCount events after `after`, of the wanted categories (all but system events without), in log order. */
export async function readAllFromEsdb(
  client: EventStoreDBClient,
  request: ReadAllRequest,
): Promise<AllStreamRecordedEvent[]> {
  const { after, maxCount, categories } = request;
  const wanted = categories && new Set(categories);
  const accepts = (event: AllStreamRecordedEvent) =>
    !isSystemEvent(event) && (!wanted || wanted.has(streamCategory(event.streamId)));

  const newest = await newestEvent(client);
  if (!newest || newest.position.commit <= after) return [];
  const end = newest.position;

  const out: AllStreamRecordedEvent[] = [];
  let from: ReadPosition = START;
  if (after >= 0n) {
    // `after` need not be an event's position (an export from a position, an old checkpoint).
    const next = await firstOf(
      client.readAll({
        fromPosition: { commit: after, prepare: after },
        direction: FORWARDS,
        maxCount: 1,
      }),
    );
    if (!next) return [];
    if (next.position.commit > after && accepts(next)) out.push(next);
    if (out.length === maxCount || comparePositions(next.position, end) >= 0) return out;
    from = next.position;
  }

  // The log as it was when the read began has been seen once the server says "caught up" (23.10+)
  // or sends a checkpoint at or past its newest event (older servers do when going live).
  // Unsubscribing drains what has arrived: those messages can overtake events still buffered.
  const subscription = client.subscribeToAll({
    fromPosition: from,
    filter: streamNameFilter({
      regex: categoryRegex(categories),
      checkpointReached: (reading, position) => {
        if (comparePositions(position, end) >= 0) void reading.unsubscribe();
      },
    }),
  });
  subscription.on('caughtUp', () => {
    void subscription.unsubscribe();
  });
  try {
    for await (const { event } of subscription as AsyncIterable<AllStreamResolvedEvent>) {
      if (!event || event.position.commit <= after) continue;
      if (accepts(event)) out.push(event);
      if (out.length === maxCount || comparePositions(event.position, end) >= 0) break;
    }
  } finally {
    await subscription.unsubscribe();
  }
  return out;
}

/** The newest event of the log that is not a system event (links, stats), or undefined. */
export async function newestEvent(
  client: EventStoreDBClient,
): Promise<AllStreamRecordedEvent | undefined> {
  let fromPosition: ReadPosition = END;
  let pageSize = 1; // mostly the newest event is ours: a poll reads one event
  for (;;) {
    const page: AllStreamRecordedEvent[] = [];
    for await (const { event } of client.readAll({
      fromPosition,
      direction: BACKWARDS,
      maxCount: pageSize,
    }))
      if (event) page.push(event);
    const newest = page.find((event) => !isSystemEvent(event));
    if (newest) return newest;
    if (page.length < pageSize) return undefined;
    fromPosition = page[page.length - 1].position; // backwards from an event's position reads the ones before it
    pageSize = HEAD_PAGE;
  }
}

/** Stream names of these categories (the name before the first '-', matched exactly), or every non-system stream. */
function categoryRegex(categories: readonly string[] | undefined): string {
  if (!categories) return '^[^$]';
  return `^(?:${categories.map(escapeRegex).join('|')})(?:-|$)`;
}

/** System streams ($stats, $$metadata, $ce- links...) and system event types start with '$'. */
function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

/** $all's order: by commit position, then prepare position. */
function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}

async function firstOf(
  read: AsyncIterable<AllStreamResolvedEvent>,
): Promise<AllStreamRecordedEvent | undefined> {
  for await (const { event } of read) if (event) return event;
  return undefined;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
