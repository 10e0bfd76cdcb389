/** Who caused an event. Auditors read this back from every event's metadata. */
export type Actor =
  | { kind: 'api_key'; keyId: string; keyName?: string }
  | { kind: 'system'; worker: string }
  | { kind: 'github'; login: string }
  | { kind: 'cli'; user: string }
  /** A signed-in person: in the application, or on /api/v1 with an access token of their session. */
  | { kind: 'member'; memberId: string };

export type EventMetadata = {
  accountId: string;
  actor: Actor;
  correlationId: string;
  causationId: string;
  requestId: string;
  [extra: string]: unknown;
};

export type NewEvent = {
  id: string; // a UUID, derived from the command so retries are deduplicated
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
};

export type StoredEvent = NewEvent & {
  stream: string;
  revision: bigint; // zero-based within the stream
  position: bigint; // global, strictly increasing (gapless on the embedded default)
  createdAt: string; // ISO 8601 UTC
};

/** What the writer expects the stream to be. There is deliberately no "any". */
export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists';

/** As in EventStoreDB: nextRevision is the revision of the last event written (the next expected revision); position is that event's global position. */
export type AppendResult = { nextRevision: bigint; position: bigint };

export type AppendOptions = {
  /**
   * The append may wait until the current promise continuations have run and commit in one
   * transaction with the other appends they made (group commit; the embedded store does, others
   * may ignore it). Each append is still decided on its own expected revision and settles on its own.
   */
  shareCommit?: boolean;
};

export type ReadAllOptions = {
  /** Read events with a position strictly greater than this; -1n (or omitted) reads from the start. */
  after?: bigint;
  maxCount?: number;
  /** Only streams of these categories (the part of the stream name before the first '-'). */
  categories?: readonly string[];
};

export interface EventStore {
  append(
    stream: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /** Throws StreamNotFoundError when the stream has no events. */
  readStream(
    stream: string,
    options?: { fromRevision?: bigint; maxCount?: number },
  ): Promise<StoredEvent[]>;
  readAll(options?: ReadAllOptions): Promise<StoredEvent[]>;
  /** Position of the newest event in the log, -1n when the log is empty. */
  headPosition(): Promise<bigint>;
  /**
   * Called after every successful append in this process; returns an unsubscribe function. A
   * store that has the appended events at hand passes `appended`, which returns them as a read
   * of the log would (in log order; called once, the result shared by every listener), and
   * `previous`, the position of the log's last event before them: nothing came in between.
   * Positions need not be gapless, so only `previous` tells a reader that nothing did.
   */
  onAppend(
    listener: (
      position: bigint,
      appended?: () => readonly StoredEvent[],
      previous?: bigint,
    ) => void,
  ): () => void;
  /**
   * The identifier this event log was given when it was created (a UUID), so read models and
   * checkpoints can tell which log they were built from. With `create`, a log without one gets one
   * (a new store, or one from before identities); without, that log answers null.
   */
  storeId(options: { create: boolean }): Promise<string | null>;
  close(): Promise<void>;
}

export class StreamNotFoundError extends Error {
  readonly stream: string;
  constructor(stream: string) {
    super(`stream ${stream} not found`);
    this.name = 'StreamNotFoundError';
    this.stream = stream;
  }
}

export class WrongExpectedVersionError extends Error {
  readonly stream: string;
  readonly expected: ExpectedRevision;
  /** The stream's actual last revision, or 'no_stream'. */
  readonly actual: bigint | 'no_stream';
  constructor(stream: string, expected: ExpectedRevision, actual: bigint | 'no_stream') {
    super(`stream ${stream}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersionError';
    this.stream = stream;
    this.expected = expected;
    this.actual = actual;
  }
}

export const streamCategory = (stream: string): string => {
  const dash = stream.indexOf('-');
  return dash === -1 ? stream : stream.slice(0, dash);
};

export const streamName = (category: string, id: string): string => `${category}-${id}`;
