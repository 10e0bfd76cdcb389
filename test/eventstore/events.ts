import { randomUUID } from 'node:crypto';
import {
  StreamNotFoundError,
  WrongExpectedVersionError,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
} from '../../src/eventstore/port.ts';

export const metadata = (overrides: Partial<EventMetadata> = {}): EventMetadata => ({
  accountId: 'acc_0000000000aaaaaaaaaaaaaaaa',
  actor: { kind: 'api_key', keyId: 'key_0000000000bbbbbbbbbbbbbbbb', keyName: 'ci' },
  correlationId: 'cor_0000000000cccccccccccccccc',
  causationId: 'cor_0000000000cccccccccccccccc',
  requestId: 'req_0000000000dddddddddddddddd',
  ...overrides,
});

export const newEvent = (
  type: string,
  data: Record<string, unknown> = {},
  id: string = randomUUID(),
): NewEvent => ({
  id,
  type,
  data,
  metadata: metadata(),
});

/** A category no other test (nor an earlier run against a shared EventStoreDB) has used; no '-' in it. */
export const uniqueCategory = (prefix = 'test'): string =>
  `${prefix}${randomUUID().replaceAll('-', '').slice(0, 16)}`;

/** The revision a writer would pass after reading the stream now. */
export async function expectedNow(store: EventStore, stream: string): Promise<ExpectedRevision> {
  try {
    const events = await store.readStream(stream);
    return events[events.length - 1].revision;
  } catch (error) {
    if (error instanceof StreamNotFoundError) return 'no_stream';
    throw error;
  }
}

export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** Read, decide, append with the revision read; on a conflict read again. Returns the conflicts met. */
export async function appendWithRetry(
  store: EventStore,
  stream: string,
  type: string,
  data: Record<string, unknown>,
): Promise<number> {
  const event = newEvent(type, data);
  for (let conflicts = 0; ; conflicts++) {
    try {
      await store.append(stream, [event], await expectedNow(store, stream));
      return conflicts;
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }
}
