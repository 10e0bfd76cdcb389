import { StreamNotFoundError, type EventStore, type StoredEvent } from './port.ts';

/** A stream's events (from a revision, up to a count), or [] when the stream has none yet. */
export async function readStreamOrEmpty(
  store: EventStore,
  stream: string,
  options?: { fromRevision?: bigint; maxCount?: number },
): Promise<StoredEvent[]> {
  try {
    return await store.readStream(stream, options);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
}
