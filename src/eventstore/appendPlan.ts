import {
  WrongExpectedVersionError,
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
} from './port.ts';

export type StreamHead = { revision: bigint; position: bigint };

/** What an embedded store can answer from inside its write transaction. */
export interface AppendLookup {
  head(stream: string): StreamHead | undefined;
  /** Ids and positions of up to `count` events of the stream, from `fromRevision` on. */
  slice(
    stream: string,
    fromRevision: bigint,
    count: number,
  ): readonly { id: string; position: bigint }[];
  locate(id: string): { stream: string; revision: bigint } | undefined;
}

export type AppendPlan =
  | { kind: 'write'; firstRevision: bigint }
  | { kind: 'done'; result: AppendResult };

/** The embedded stores keep event ids unique across the whole log (EventStoreDB only per stream). */
export class DuplicateEventIdError extends Error {
  readonly id: string;
  constructor(id: string, storedAt?: { stream: string; revision: bigint }) {
    super(
      storedAt
        ? `event id ${id} is already stored at ${storedAt.stream}@${storedAt.revision}; event ids must be unique across the log`
        : `event id ${id} appears twice in one append`,
    );
    this.name = 'DuplicateEventIdError';
    this.id = id;
  }
}

/**
 * The append rules shared by the embedded stores, with EventStoreDB's semantics: the expected
 * revision must match the stream's last revision, except that a retry whose event ids are already
 * stored at exactly the revisions it asked for succeeds again without writing, returning the
 * original result.
 */
export function planAppend(
  lookup: AppendLookup,
  stream: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): AppendPlan {
  assertValidExpected(expected);
  assertDistinctIds(events);
  const head = lookup.head(stream);
  const matches = expectationMet(expected, head?.revision);

  if (events.length === 0) {
    if (!matches)
      throw new WrongExpectedVersionError(stream, expected, head?.revision ?? 'no_stream');
    return {
      kind: 'done',
      result: { nextRevision: head?.revision ?? -1n, position: head?.position ?? -1n },
    };
  }
  // Nothing is stored past the head, so a matching exact revision cannot be a retry: skip the lookup.
  if (matches && expected !== 'stream_exists')
    return { kind: 'write', firstRevision: head ? head.revision + 1n : 0n };

  const retried = findRetriedAppend(lookup, stream, events, expected);
  if (retried) return { kind: 'done', result: retried };
  if (!matches)
    throw new WrongExpectedVersionError(stream, expected, head?.revision ?? 'no_stream');
  return { kind: 'write', firstRevision: head ? head.revision + 1n : 0n };
}

export function assertValidExpected(expected: ExpectedRevision): void {
  if (typeof expected === 'bigint' && expected < 0n) {
    throw new RangeError(
      `expected revision must be >= 0 (use 'no_stream' for a new stream), got ${expected}`,
    );
  }
}

/** Whether a stream whose last revision is `headRevision` (undefined: no events) is what the writer expects. */
export function expectationMet(
  expected: ExpectedRevision,
  headRevision: bigint | undefined,
): boolean {
  if (expected === 'no_stream') return headRevision === undefined;
  if (expected === 'stream_exists') return headRevision !== undefined;
  return headRevision === expected;
}

function findRetriedAppend(
  lookup: AppendLookup,
  stream: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): AppendResult | undefined {
  let start: bigint;
  if (expected === 'no_stream') start = 0n;
  else if (typeof expected === 'bigint') start = expected + 1n;
  else {
    const first = lookup.locate(events[0].id);
    if (first?.stream !== stream) return undefined;
    start = first.revision;
  }
  const stored = lookup.slice(stream, start, events.length);
  if (
    stored.length !== events.length ||
    stored.some((event, index) => event.id !== events[index].id)
  )
    return undefined;
  return {
    nextRevision: start + BigInt(events.length) - 1n,
    position: stored[stored.length - 1].position,
  };
}

function assertDistinctIds(events: readonly NewEvent[]): void {
  if (events.length < 2) return;
  const seen = new Set<string>();
  for (const event of events) {
    if (seen.has(event.id)) throw new DuplicateEventIdError(event.id);
    seen.add(event.id);
  }
}

/** The first id of the batch that is already stored somewhere, as an error to throw. */
export function findStoredId(
  lookup: AppendLookup,
  events: readonly NewEvent[],
): DuplicateEventIdError | undefined {
  for (const event of events) {
    const storedAt = lookup.locate(event.id);
    if (storedAt) return new DuplicateEventIdError(event.id, storedAt);
  }
  return undefined;
}
