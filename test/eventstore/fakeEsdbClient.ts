import {
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type AppendResult,
  type EventStoreDBClient,
  type Filter,
  type JSONEventData,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import {
  compare,
  fakeSubscribeToAll,
  type FakeEsdbWire,
  type FakeRecorded as Recorded,
} from './fakeEsdbSubscription.ts';

/**
 * The slice of EventStoreDBClient the adapter uses, behaving as the server does where it matters
 * to the adapter: positions are byte offsets (not gapless), system events ($ce- links, $stats)
 * sit between ours, reading $all from a position includes the event there, a subscription to
 * $all starts after it and applies its filter on the server (fakeEsdbSubscription.ts), a retried
 * append with the same ids is acknowledged with the original's last revision and position, and a
 * missing stream fails while reading.
 */
export type FakeEsdbOptions = {
  /**
   * As a connection string with throwOnAppendFailure=false: a wrong expected revision resolves
   * { success: false } instead of throwing, and, as db-client 6.2.1's batch append does, reports
   * the current revision as BigInt(hasCurrentStreamRevision()): 1n whatever the revision is.
   */
  throwOnAppendFailure?: boolean;
  /**
   * What an idempotent retry reports. The server (22.10+) answers with the original append's last
   * revision and that event's position; without a position when it cannot read that event back;
   * 'current' is the stream's current revision, should a server answer with that.
   */
  retryReports?: 'original' | 'original_without_position' | 'current';
  /** Server 23.10+ tells a catch-up subscription it has caught up; older ones send a checkpoint. */
  sendsCaughtUp?: boolean;
};

export type FakeEsdbClient = EventStoreDBClient & {
  wire: FakeEsdbWire & {
    /** Events written as a legacy TCP explicit transaction: one commit record after their prepares. */
    appendExplicitTransaction(stream: string, types: string[]): void;
  };
};

export function createFakeEsdbClient(options: FakeEsdbOptions = {}): FakeEsdbClient {
  const log: Recorded[] = [];
  const live = new Set<(event: Recorded) => void>();
  const wire = { subscriptions: [], sent: [] } as FakeEsdbWire;
  let offset = 4_096n;
  const streamEvents = (stream: string) => log.filter((e) => e.streamId === stream);

  function record(
    streamId: string,
    id: string,
    type: string,
    data: unknown,
    metadata: unknown,
    commit?: bigint,
  ): Recorded {
    const revision = BigInt(streamEvents(streamId).length);
    const size = BigInt(JSON.stringify([streamId, type, data, metadata]).length + 90);
    const position = { commit: commit ?? offset, prepare: offset };
    const event: Recorded = {
      streamId,
      id,
      revision,
      type,
      isJson: true,
      created: new Date(),
      data,
      metadata,
      position,
    };
    offset += size;
    log.push(event);
    for (const send of live) send(event);
    return event;
  }

  function append(
    stream: string,
    events: JSONEventData[],
    expected: AppendExpectedRevision,
  ): AppendResult {
    const current = streamEvents(stream);
    const last = current.length === 0 ? 'no_stream' : current[current.length - 1].revision;
    const start =
      expected === 'no_stream'
        ? 0
        : typeof expected === 'bigint'
          ? Number(expected) + 1
          : current.findIndex((e) => e.id === events[0]?.id);
    const stored = start < 0 ? [] : current.slice(start, start + events.length);
    if (
      events.length > 0 &&
      stored.length === events.length &&
      stored.every((e, i) => e.id === events[i].id)
    ) {
      const original = stored[stored.length - 1];
      if (options.retryReports === 'current')
        return {
          success: true,
          nextExpectedRevision: current[current.length - 1].revision,
          position: undefined,
        };
      const position =
        options.retryReports === 'original_without_position' ? undefined : original.position;
      return { success: true, nextExpectedRevision: original.revision, position };
    }
    const ok =
      expected === 'no_stream'
        ? last === 'no_stream'
        : expected === 'stream_exists'
          ? last !== 'no_stream'
          : expected === last;
    if (!ok && options.throwOnAppendFailure === false) {
      return {
        success: false,
        nextExpectedRevision: last === 'no_stream' ? -1n : BigInt(true),
        position: undefined,
      };
    }
    if (!ok || expected === 'any')
      throw new WrongExpectedVersionError(undefined, {
        streamName: stream,
        expected,
        current: last,
      });
    let written: Recorded | undefined;
    for (const e of events) {
      written = record(
        stream,
        e.id,
        e.type,
        JSON.parse(JSON.stringify(e.data)),
        JSON.parse(JSON.stringify(e.metadata)),
      );
      record(
        `$ce-${stream.split('-')[0]}`,
        crypto.randomUUID(),
        '$>',
        `${written.revision}@${stream}`,
        {},
      );
    }
    if (log.length % 3 === 0)
      record('$stats-127.0.0.1:2113', crypto.randomUUID(), '$statsCollected', {}, {});
    return {
      success: true,
      nextExpectedRevision: written?.revision ?? -1n,
      position: written?.position,
    };
  }

  async function* page<T>(items: T[], failure?: Error): AsyncGenerator<T> {
    if (failure) throw failure;
    yield* items;
  }

  const fake = {
    async appendToStream(
      stream: string,
      events: JSONEventData[],
      options: { expectedRevision?: AppendExpectedRevision } = {},
    ) {
      return append(stream, events, options.expectedRevision ?? 'any');
    },
    readStream(
      stream: string,
      options: { fromRevision?: bigint | 'start' | 'end'; direction?: string; maxCount?: number },
    ) {
      const events = streamEvents(stream);
      if (events.length === 0) return page([], new StreamNotFoundError(undefined, stream));
      const max = options.maxCount ?? Number.MAX_SAFE_INTEGER;
      if (options.direction === 'backwards') {
        const from =
          options.fromRevision === 'end' || options.fromRevision === undefined
            ? events.length - 1
            : Number(options.fromRevision);
        return page(
          events
            .slice(0, from + 1)
            .reverse()
            .slice(0, max)
            .map((event) => ({ event })),
        );
      }
      const from = typeof options.fromRevision === 'bigint' ? Number(options.fromRevision) : 0;
      return page(events.slice(from, from + max).map((event) => ({ event })));
    },
    readAll(options: { fromPosition?: ReadPosition; direction?: string; maxCount?: number }) {
      const max = options.maxCount ?? Number.MAX_SAFE_INTEGER;
      const from = options.fromPosition;
      if (options.direction === 'backwards') {
        const before =
          from === undefined || from === 'end'
            ? log
            : log.filter((e) => compare(e.position, from as Position) < 0);
        return page(
          [...before]
            .reverse()
            .slice(0, max)
            .map((event) => ({ event, commitPosition: event.position.commit })),
        );
      }
      const after =
        from === undefined || from === 'start'
          ? log
          : log.filter((e) => compare(e.position, from as Position) >= 0);
      return page(
        after.slice(0, max).map((event) => ({ event, commitPosition: event.position.commit })),
      );
    },
    subscribeToAll(subscribe: { fromPosition?: ReadPosition; filter?: Filter }) {
      return fakeSubscribeToAll(
        { sendsCaughtUp: options.sendsCaughtUp ?? true, log, live, wire },
        subscribe,
      );
    },
    async dispose() {},
  };
  const appendExplicitTransaction = (stream: string, types: string[]) => {
    const commit = offset + BigInt(types.length) * 200n; // the commit record follows the prepares
    for (const type of types) record(stream, crypto.randomUUID(), type, {}, {}, commit);
    offset = commit + 100n;
  };
  return Object.assign(fake as unknown as EventStoreDBClient, {
    wire: Object.assign(wire, { appendExplicitTransaction }),
  });
}
