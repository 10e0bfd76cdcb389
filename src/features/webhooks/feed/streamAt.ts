import type { EventStore, StoredEvent } from '../../../eventstore/port.ts';
import { readStreamOrEmpty } from '../../../eventstore/readStreamOrEmpty.ts';

/**
 * The events of `event`'s stream up to and including it: a payload folded from them shows the
 * state at that event, whatever happened to the stream since.
 */
export async function streamUpTo(store: EventStore, event: StoredEvent): Promise<StoredEvent[]> {
  const events = await store.readStream(event.stream, { maxCount: Number(event.revision) + 1 });
  const last = events[events.length - 1];
  if (!last || last.id !== event.id)
    throw new Error(
      `stream ${event.stream} does not hold event ${event.id} at revision ${event.revision}`,
    );
  return events;
}

/** Another stream as it was at a global position (events after it are ignored); [] when it does not exist. */
export async function otherStreamAt(
  store: EventStore,
  stream: string,
  position: bigint,
): Promise<StoredEvent[]> {
  return (await readStreamOrEmpty(store, stream)).filter((event) => event.position <= position);
}
