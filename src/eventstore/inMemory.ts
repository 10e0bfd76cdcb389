import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../core/clock.ts';
import { createAppendListeners } from './appendListeners.ts';
import { findStoredId, planAppend, type AppendLookup } from './appendPlan.ts';
import { StreamNotFoundError, streamCategory, type EventStore, type StoredEvent } from './port.ts';
import { readAllRequest, readStreamRequest } from './readOptions.ts';

export type InMemoryEventStoreOptions = { clock?: Clock };

/** Payloads are kept as JSON text, so what comes back is what SQLite would give back. */
type StoredRecord = Omit<StoredEvent, 'data' | 'metadata'> & { data: string; metadata: string };

/** The SQLite store's semantics without a file, for tests: gapless positions, the same append rules. */
export function createInMemoryEventStore(options: InMemoryEventStoreOptions = {}): EventStore {
  const clock = options.clock ?? systemClock;
  const log: StoredRecord[] = [];
  const streams = new Map<string, StoredRecord[]>();
  const byId = new Map<string, StoredRecord>();
  const listeners = createAppendListeners();
  let closed = false;
  let storeId: string | null = null;

  const lookup: AppendLookup = {
    head(stream) {
      const events = streams.get(stream);
      const last = events?.[events.length - 1];
      return last && { revision: last.revision, position: last.position };
    },
    slice: (stream, fromRevision, count) =>
      (streams.get(stream) ?? []).slice(Number(fromRevision), Number(fromRevision) + count),
    locate(id) {
      const record = byId.get(id);
      return record && { stream: record.stream, revision: record.revision };
    },
  };

  function assertOpen(): void {
    if (closed) throw new Error('the in-memory event store is closed');
  }

  return {
    async append(stream, events, expected) {
      assertOpen();
      const createdAt = clock.now();
      const encoded = events.map((event) => ({
        ...event,
        data: JSON.stringify(event.data),
        metadata: JSON.stringify(event.metadata),
      }));
      const plan = planAppend(lookup, stream, events, expected);
      if (plan.kind === 'done') return plan.result;
      const duplicate = findStoredId(lookup, events);
      if (duplicate) throw duplicate;

      const streamEvents = streams.get(stream) ?? [];
      streams.set(stream, streamEvents);
      let revision = plan.firstRevision;
      for (const event of encoded) {
        const record: StoredRecord = {
          ...event,
          stream,
          revision: revision++,
          position: BigInt(log.length),
          createdAt,
        };
        log.push(record);
        streamEvents.push(record);
        byId.set(record.id, record);
      }
      const result = { nextRevision: revision - 1n, position: BigInt(log.length - 1) };
      listeners.notify(result.position);
      return result;
    },

    async readStream(stream, options) {
      assertOpen();
      const { fromRevision, maxCount } = readStreamRequest(options);
      const events = streams.get(stream);
      if (!events) throw new StreamNotFoundError(stream);
      const start = Number(fromRevision);
      return events.slice(start, maxCount === undefined ? undefined : start + maxCount).map(decode);
    },

    async readAll(options) {
      assertOpen();
      const { after, maxCount, categories } = readAllRequest(options);
      const wanted = categories && new Set(categories);
      const out: StoredEvent[] = [];
      for (let index = Number(after + 1n); index < log.length && out.length < maxCount; index++) {
        const record = log[index];
        if (!wanted || wanted.has(streamCategory(record.stream))) out.push(decode(record));
      }
      return out;
    },

    async headPosition() {
      assertOpen();
      return BigInt(log.length - 1);
    },

    onAppend(listener) {
      return listeners.add(listener);
    },

    async storeId(options) {
      if (options.create) storeId ??= randomUUID();
      return storeId;
    },

    async close() {
      closed = true;
    },
  };
}

function decode(record: StoredRecord): StoredEvent {
  return { ...record, data: JSON.parse(record.data), metadata: JSON.parse(record.metadata) };
}
