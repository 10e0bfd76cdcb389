import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  StreamDeletedError,
  StreamNotFoundError as EsdbStreamNotFoundError,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  jsonEvent,
  type AppendExpectedRevision,
  type Position,
  type RecordedEvent,
} from '@eventstore/db-client';
import { createAppendListeners } from './appendListeners.ts';
import { assertValidExpected, expectationMet } from './appendPlan.ts';
import {
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type StoredEvent,
} from './port.ts';
import { newestEvent, readAllFromEsdb } from './esdbReadAll.ts';
import { readAllRequest, readStreamRequest } from './readOptions.ts';

/*
 * Positions. An EventStoreDB log position is a (commit, prepare) pair of byte offsets into its
 * transaction file; our bigint position is the commit offset, and $all is read as reported
 * (esdbReadAll.ts says how, with the server's sources for it). Positions grow by the size of each
 * record: strictly increasing, never gapless.
 *
 * Categories are filtered by the server: a read of $all is a catch-up subscription with a
 * stream-name filter (esdbReadAll.ts), since this client's readAll takes no filter.
 *
 * onAppend is in-process only: it fires after this process's appends. Other processes' appends
 * are found by the consumer runner's polling.
 */

const UINT64_MAX = 2n ** 64n - 1n;
/** The log's identity: the first event of this stream (no '$': system streams need admin rights). */
const STORE_ID_STREAM = 'inkstream_store-identity';
const STORE_ID_METADATA = {
  accountId: 'system',
  actor: { kind: 'system', worker: 'store' },
  correlationId: 'store',
  causationId: 'store',
  requestId: 'store',
};
const HEAD_PAGE = 100;

export function openEsdbEventStore(connectionString: string): EventStore {
  return createEsdbEventStore(EventStoreDBClient.connectionString(connectionString));
}

/** The store owns the client: close() disposes it. */
export function createEsdbEventStore(client: EventStoreDBClient): EventStore {
  const listeners = createAppendListeners();

  /** The stream's last event, or undefined when it has none. */
  async function lastEvent(stream: string): Promise<RecordedEvent | undefined> {
    const page = await readStreamEvents(stream, {
      fromRevision: END,
      direction: BACKWARDS,
      maxCount: 1,
    });
    return page?.[0];
  }

  async function readStreamEvents(
    stream: string,
    options: {
      fromRevision: bigint | typeof END;
      direction: typeof FORWARDS | typeof BACKWARDS;
      maxCount?: number;
    },
  ): Promise<RecordedEvent[] | undefined> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of client.readStream(stream, options))
        if (resolved.event) events.push(resolved.event);
    } catch (error) {
      if (error instanceof EsdbStreamNotFoundError || error instanceof StreamDeletedError)
        return undefined;
      throw error;
    }
    return events;
  }

  /**
   * The stored event of a retried append. The revision the server reports is the original's last
   * event (looked at first); should it be the stream's current one instead, the stream is read
   * backwards from its end until the event turns up.
   */
  async function findRetriedEvent(
    stream: string,
    id: string,
    reported: bigint,
  ): Promise<RecordedEvent> {
    const atReported = await readStreamEvents(stream, {
      fromRevision: reported,
      direction: FORWARDS,
      maxCount: 1,
    });
    if (atReported?.[0]?.id === id) return atReported[0];
    let from: bigint | typeof END = END;
    for (;;) {
      const page = await readStreamEvents(stream, {
        fromRevision: from,
        direction: BACKWARDS,
        maxCount: HEAD_PAGE,
      });
      const found = page?.find((event) => event.id === id);
      if (found) return found;
      const oldest = page?.[page.length - 1];
      if (!oldest || page.length < HEAD_PAGE || oldest.revision === 0n) {
        throw new Error(
          `EventStoreDB acknowledged a retried append to ${stream} but its events cannot be read back`,
        );
      }
      from = oldest.revision - 1n;
    }
  }

  /** An empty append writes nothing: it only answers whether the stream is as expected. */
  async function checkOnly(stream: string, expected: ExpectedRevision): Promise<AppendResult> {
    const last = await lastEvent(stream);
    if (!expectationMet(expected, last?.revision))
      throw new WrongExpectedVersionError(stream, expected, last?.revision ?? 'no_stream');
    return { nextRevision: last?.revision ?? -1n, position: last ? positionOf(last) : -1n };
  }

  return {
    async append(stream, events, expected) {
      assertValidExpected(expected);
      if (events.length === 0) return checkOnly(stream, expected);
      const eventData = events.map((event) =>
        jsonEvent({ id: event.id, type: event.type, data: event.data, metadata: event.metadata }),
      );
      // Our expectations are a subset of the client's (no ANY), spelled the same: 'no_stream', 'stream_exists', bigint.
      const expectedRevision: AppendExpectedRevision = expected;
      let result;
      try {
        result = await client.appendToStream(stream, eventData, { expectedRevision });
      } catch (error) {
        if (error instanceof EsdbWrongExpectedVersionError)
          throw new WrongExpectedVersionError(stream, expected, error.actualVersion);
        throw error;
      }
      // Only reached when the connection string sets throwOnAppendFailure=false. The revision the
      // client reports then is not the stream's (6.2.1's batch append gives BigInt(hasCurrentStreamRevision()),
      // 0n or 1n), so the stream's last revision is read instead.
      if (!result.success) {
        const last = await lastEvent(stream);
        throw new WrongExpectedVersionError(stream, expected, last?.revision ?? 'no_stream');
      }
      // A write, or a retry the server deduplicated: both report the last event's revision and its
      // $all position (22.10+), so a retry's answer is the original's, as the port requires.
      if (result.position) {
        listeners.notify(result.position.commit);
        return { nextRevision: result.nextExpectedRevision, position: result.position.commit };
      }
      // A deduplicated retry whose original the server could not read back reports no position:
      // the original's last event is found by its id.
      const original = await findRetriedEvent(
        stream,
        events[events.length - 1].id,
        result.nextExpectedRevision,
      );
      return { nextRevision: original.revision, position: positionOf(original) };
    },

    async readStream(stream, options) {
      const { fromRevision, maxCount } = readStreamRequest(options);
      const events = await readStreamEvents(stream, {
        fromRevision,
        direction: FORWARDS,
        ...(maxCount === undefined ? {} : { maxCount }),
      });
      if (!events) throw new StreamNotFoundError(stream);
      return events.map((event) => toStoredEvent(event, positionOf(event)));
    },

    async readAll(options) {
      const request = readAllRequest(options);
      if (request.categories?.length === 0) return [];
      const events = await readAllFromEsdb(client, request);
      return events.map((event) => toStoredEvent(event, positionInAll(event)));
    },

    async headPosition() {
      return (await newestEvent(client))?.position.commit ?? -1n;
    },

    onAppend(listener) {
      return listeners.add(listener);
    },

    async storeId(options) {
      const recorded = async () => {
        const first = await readStreamEvents(STORE_ID_STREAM, {
          fromRevision: 0n,
          direction: FORWARDS,
          maxCount: 1,
        });
        return first?.[0] ? String(jsonObject(first[0].data, STORE_ID_STREAM).storeId) : null;
      };
      const existing = await recorded();
      if (existing || !options.create) return existing;
      const storeId = randomUUID();
      const created = jsonEvent({
        id: randomUUID(),
        type: 'StoreCreated',
        data: { storeId },
        metadata: STORE_ID_METADATA,
      });
      try {
        const result = await client.appendToStream(STORE_ID_STREAM, [created], {
          expectedRevision: NO_STREAM,
        });
        return result.success ? storeId : recorded(); // not success: throwOnAppendFailure=false, another replica was first
      } catch (error) {
        // Another replica created it first: theirs is the identity.
        if (error instanceof EsdbWrongExpectedVersionError) return recorded();
        throw error;
      }
    },

    async close() {
      await client.dispose();
    },
  };
}

/**
 * An event's position in $all. gRPC appends give each event commit = prepare; events of a legacy
 * TCP explicit transaction share their commit position, so one bigint cannot order them.
 */
function positionInAll(event: RecordedEvent & { position: Position }): bigint {
  const { commit, prepare } = event.position;
  if (commit !== prepare) {
    throw new Error(
      `${event.streamId}@${event.revision} was written by an explicit transaction (commit ${commit}, prepare ${prepare}); Inkstream reads only events appended one record each, as gRPC appends are`,
    );
  }
  return commit;
}

function positionOf(event: RecordedEvent): bigint {
  const commit = event.position?.commit;
  if (commit === undefined || commit === UINT64_MAX) {
    throw new Error(
      'EventStoreDB returned no log position for events read from a stream; Inkstream needs EventStoreDB 22.10 or newer',
    );
  }
  return commit;
}

function toStoredEvent(event: RecordedEvent, position: bigint): StoredEvent {
  const where = `${event.streamId}@${event.revision}`;
  return {
    id: event.id,
    type: event.type,
    data: jsonObject(event.data, `data of ${where}`),
    metadata: jsonObject(event.metadata, `metadata of ${where}`) as EventMetadata,
    stream: event.streamId,
    revision: event.revision,
    position,
    createdAt: event.created.toISOString(),
  };
}

function jsonObject(value: unknown, what: string): Record<string, unknown> {
  const parsed =
    value instanceof Uint8Array ? JSON.parse(Buffer.from(value).toString('utf8')) : value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${what} is not a JSON object`);
  return parsed as Record<string, unknown>;
}
