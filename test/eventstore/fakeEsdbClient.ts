import {
  StreamNotFoundError, WrongExpectedVersionError,
  type AppendExpectedRevision, type AppendResult, type EventStoreDBClient, type JSONEventData, type Position, type ReadPosition,
} from '@eventstore/db-client';

type Recorded = {
  streamId: string; id: string; revision: bigint; type: string; isJson: true; created: Date;
  data: unknown; metadata: unknown; position: Position;
};

/**
 * The slice of EventStoreDBClient the adapter uses, behaving as the server does where it matters
 * to the adapter: positions are byte offsets (not gapless), system events ($ce- links, $stats)
 * sit between ours, reading $all from a position includes the event there, a retried append
 * with the same ids is acknowledged without a position, and a missing stream fails while reading.
 */
export type FakeEsdbOptions = {
  /**
   * As a connection string with throwOnAppendFailure=false: a wrong expected revision resolves
   * { success: false } instead of throwing, and, as db-client 6.2.1's batch append does, reports
   * the current revision as BigInt(hasCurrentStreamRevision()): 1n whatever the revision is.
   */
  throwOnAppendFailure?: boolean;
  /**
   * Which revision an idempotent retry reports: the original append's last (what the adapter
   * first assumes) or the stream's current one, should the server answer with that.
   */
  retryReports?: 'original' | 'current';
};

export function createFakeEsdbClient(options: FakeEsdbOptions = {}): EventStoreDBClient {
  const log: Recorded[] = [];
  let offset = 4_096n;
  const streamEvents = (stream: string) => log.filter((e) => e.streamId === stream);

  function record(streamId: string, id: string, type: string, data: unknown, metadata: unknown): Recorded {
    const revision = BigInt(streamEvents(streamId).length);
    const size = BigInt(JSON.stringify([streamId, type, data, metadata]).length + 90);
    const event: Recorded = { streamId, id, revision, type, isJson: true, created: new Date(), data, metadata, position: { commit: offset, prepare: offset } };
    offset += size;
    log.push(event);
    return event;
  }

  function append(stream: string, events: JSONEventData[], expected: AppendExpectedRevision): AppendResult {
    const current = streamEvents(stream);
    const last = current.length === 0 ? 'no_stream' : current[current.length - 1].revision;
    const start = expected === 'no_stream' ? 0 : typeof expected === 'bigint' ? Number(expected) + 1
      : current.findIndex((e) => e.id === events[0]?.id);
    const stored = start < 0 ? [] : current.slice(start, start + events.length);
    if (events.length > 0 && stored.length === events.length && stored.every((e, i) => e.id === events[i].id)) {
      const reported = options.retryReports === 'current' ? current[current.length - 1] : stored[stored.length - 1];
      return { success: true, nextExpectedRevision: reported.revision, position: undefined };
    }
    const ok = expected === 'no_stream' ? last === 'no_stream' : expected === 'stream_exists' ? last !== 'no_stream' : expected === last;
    if (!ok && options.throwOnAppendFailure === false) {
      return { success: false, nextExpectedRevision: last === 'no_stream' ? -1n : BigInt(true), position: undefined };
    }
    if (!ok || expected === 'any') throw new WrongExpectedVersionError(undefined, { streamName: stream, expected, current: last });
    let written: Recorded | undefined;
    for (const e of events) {
      written = record(stream, e.id, e.type, JSON.parse(JSON.stringify(e.data)), JSON.parse(JSON.stringify(e.metadata)));
      record(`$ce-${stream.split('-')[0]}`, crypto.randomUUID(), '$>', `${written.revision}@${stream}`, {});
    }
    if (log.length % 3 === 0) record('$stats-127.0.0.1:2113', crypto.randomUUID(), '$statsCollected', {}, {});
    return { success: true, nextExpectedRevision: written?.revision ?? -1n, position: written?.position };
  }

  async function* page<T>(items: T[], failure?: Error): AsyncGenerator<T> {
    if (failure) throw failure;
    yield* items;
  }

  const fake = {
    async appendToStream(stream: string, events: JSONEventData[], options: { expectedRevision?: AppendExpectedRevision } = {}) {
      return append(stream, events, options.expectedRevision ?? 'any');
    },
    readStream(stream: string, options: { fromRevision?: bigint | 'start' | 'end'; direction?: string; maxCount?: number }) {
      const events = streamEvents(stream);
      if (events.length === 0) return page([], new StreamNotFoundError(undefined, stream));
      const max = options.maxCount ?? Number.MAX_SAFE_INTEGER;
      if (options.direction === 'backwards') {
        const from = options.fromRevision === 'end' || options.fromRevision === undefined ? events.length - 1 : Number(options.fromRevision);
        return page(events.slice(0, from + 1).reverse().slice(0, max).map((event) => ({ event })));
      }
      const from = typeof options.fromRevision === 'bigint' ? Number(options.fromRevision) : 0;
      return page(events.slice(from, from + max).map((event) => ({ event })));
    },
    readAll(options: { fromPosition?: ReadPosition; direction?: string; maxCount?: number }) {
      const max = options.maxCount ?? Number.MAX_SAFE_INTEGER;
      const from = options.fromPosition;
      if (options.direction === 'backwards') {
        const before = from === undefined || from === 'end' ? log : log.filter((e) => e.position.commit <= (from as Position).commit);
        return page([...before].reverse().slice(0, max).map((event) => ({ event, commitPosition: event.position.commit })));
      }
      const after = from === undefined || from === 'start' ? log : log.filter((e) => e.position.commit >= (from as Position).commit);
      return page(after.slice(0, max).map((event) => ({ event, commitPosition: event.position.commit })));
    },
    async dispose() {},
  };
  return fake as unknown as EventStoreDBClient;
}
