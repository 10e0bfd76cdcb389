import { readStreamOrEmpty } from './readStreamOrEmpty.ts';
import { AppError } from '../core/errors.ts';
import { deriveEventId } from '../core/ids.ts';
import {
  WrongExpectedVersionError,
  streamName,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type StoredEvent,
} from './port.ts';

/** A domain event before it is stored: the stream type's own union member. */
export type DomainEvent = { type: string; data: Record<string, unknown> };

/** Every type name of an event union, as data: the compiler refuses a missing name and an extra one. */
export type EventNames<E extends DomainEvent> = { readonly [T in E['type']]: true };

/** One stream type (project, topic, article, ...): pure fold and pure decision. */
export type StreamType<State, Event extends DomainEvent, Command> = {
  category: string;
  initial(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
};

/** Who and why: copied onto every event the command appends. `commandId` makes event ids stable. */
export type CommandContext = {
  accountId: string;
  actor: EventMetadata['actor'];
  correlationId: string;
  requestId: string;
  causationId?: string;
  commandId: string;
};

export type AppendedEvent = NewEvent & { stream: string; revision: bigint };

export type CommandResult<State> = {
  state: State;
  events: AppendedEvent[];
  /** Position of the last appended event; null when the command decided nothing. */
  position: bigint | null;
};

export const MAX_CONFLICT_RETRIES = 3;

export async function loadStream<State, Event extends DomainEvent>(
  store: EventStore,
  type: Pick<StreamType<State, Event, unknown>, 'category' | 'initial' | 'evolve'>,
  id: string,
): Promise<{ state: State; revision: bigint | null; events: StoredEvent[] }> {
  const events = await readStreamOrEmpty(store, streamName(type.category, id));
  const state = events.reduce((s, e) => type.evolve(s, e as unknown as Event), type.initial());
  return { state, revision: events.length ? events[events.length - 1].revision : null, events };
}

export type CommandOptions = {
  /**
   * The id was just generated, so the stream cannot exist yet: the first attempt decides on the
   * initial state and appends with 'no_stream' without reading. Should the stream exist after
   * all, the conflict re-reads as usual.
   */
  newStream?: boolean;
};

/** read → fold → decide → append with the revision read; a conflict re-reads and re-decides. */
export async function handleCommand<State, Event extends DomainEvent, Command>(
  store: EventStore,
  type: StreamType<State, Event, Command>,
  id: string,
  command: Command,
  context: CommandContext,
  options: CommandOptions = {},
): Promise<CommandResult<State>> {
  const stream = streamName(type.category, id);
  const { commandId, ...metadata } = context;
  for (let attempt = 0; ; attempt++) {
    const { state, revision } =
      attempt === 0 && options.newStream
        ? { state: type.initial(), revision: null }
        : await loadStream(store, type, id);
    const decided = type.decide(command, state);
    if (decided.length === 0) return { state, events: [], position: null };
    const expected: ExpectedRevision = revision === null ? 'no_stream' : revision;
    const newEvents = decided.map((event, index) => ({
      id: deriveEventId(stream, commandId, index),
      type: event.type,
      data: event.data,
      metadata: { ...metadata, causationId: context.causationId ?? commandId } as EventMetadata,
    }));
    try {
      // Commands of requests handled together commit together (group commit on the embedded store).
      const appended = await store.append(stream, newEvents, expected, { shareCommit: true });
      const nextState = decided.reduce((s, e) => type.evolve(s, e), state);
      const firstRevision = appended.nextRevision - BigInt(decided.length) + 1n;
      const events = newEvents.map((event, index) => ({
        ...event,
        stream,
        revision: firstRevision + BigInt(index),
      }));
      return { state: nextState, events, position: appended.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      if (attempt + 1 >= MAX_CONFLICT_RETRIES) {
        throw new AppError(
          'conflict',
          'The resource was changed by another request at the same time; retry the request.',
          { cause: error },
        );
      }
    }
  }
}
