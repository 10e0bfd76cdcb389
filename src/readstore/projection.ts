import type { DomainEvent, EventNames } from '../eventstore/handleCommand.ts';
import type { StoredEvent } from '../eventstore/port.ts';
import type { Doc, IndexSpec } from './port.ts';

/**
 * A read model: a pure fold of events into documents of one collection. The runner keeps the
 * position of the last event applied in `_position`, so a replayed event is skipped.
 */
export type Projection<D extends Doc = Doc> = {
  name: string;
  collection: string;
  /** The query shapes its collection serves (see IndexSpec). */
  indexes: readonly IndexSpec[];
  /** The streams this read model reads from. */
  categories: readonly string[];
  /** Which document an event touches, or null when it touches none. */
  documentId(event: StoredEvent): string | null;
  /**
   * Event types that begin their document: always the first event to touch it (TopicCreated, the
   * first event of the topic's own stream, for a read model of topics alone). The fold starts
   * such a document from nothing instead of looking for it in the store; were it there already
   * (the event delivered again), the store's position guard ignores the write.
   */
  begins?: readonly string[];
  /**
   * Bump when the documents change for a reason the definition's own text does not show (a helper
   * that evolve calls): the read model is then rebuilt at start (see projectionVersion.ts).
   */
  version?: number;
  /** Set on a read model that counts another's documents instead of folding events (tally.ts). */
  tally?: TallySpec;
  evolve(doc: D | null, event: StoredEvent): D | null;
  /** Whether the read model knows this event type (false: a type of a newer release, skipped). */
  knows(type: string): boolean;
};

/** A stored event typed by its stream's union: the member's type and data with the log's fields. */
export type EventOf<E extends DomainEvent> = E extends DomainEvent
  ? Omit<StoredEvent, 'type' | 'data'> & E
  : never;

/** A read model as written: its fold typed by the unions of the streams it reads. */
export type ProjectionDefinition<D extends Doc, E extends DomainEvent> = Omit<
  Projection<D>,
  'documentId' | 'evolve' | 'knows'
> & {
  /** Every event name of the streams in `categories` (the domains' `…_EVENTS` records, spread). */
  events: EventNames<E>;
  documentId(event: EventOf<E>): string | null;
  evolve(doc: D | null, event: EventOf<E>): D | null;
};

/**
 * The one place a stored event becomes its stream's type: only events whose type the streams'
 * unions name reach the fold, so the fold's switch is checked by the compiler, and an event of a
 * newer release touches no document (the fold reports it: projectionFold.ts).
 */
export function defineProjection<D extends Doc, E extends DomainEvent>(
  definition: ProjectionDefinition<D, E>,
): Projection<D> {
  const known = new Set(Object.keys(definition.events));
  const knows = (type: string): boolean => known.has(type);
  const typed = (event: StoredEvent) => event as EventOf<E>;
  const { events: _events, ...rest } = definition;
  return {
    ...rest,
    knows,
    documentId: (event) => (knows(event.type) ? definition.documentId(typed(event)) : null),
    evolve: (doc, event) => (knows(event.type) ? definition.evolve(doc, typed(event)) : doc),
  };
}

/** Read models of different document types as one list: each is only ever given its own documents. */
export const projectionList = (...projections: Projection<any>[]): readonly Projection[] =>
  projections;

export const POSITION_FIELD = '_position';

/**
 * How another read model's documents are counted (tally.ts): per value of `groupBy` (a project), how
 * many have each of `values` in `countBy` (a status). Both fields must be indexed together on the source.
 */
export type TallySpec = {
  source: string;
  groupBy: string;
  countBy: string;
  values: readonly string[];
};

/** A read-model document as an API returns it: without the runner's bookkeeping. */
export function withoutBookkeeping<D extends Doc>(doc: D): Omit<D, '_position'> {
  const { _position, ...rest } = doc as D & { _position?: string };
  return rest;
}
