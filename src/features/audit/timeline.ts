import { positionToText } from '../../core/positions.ts';
import type { Actor, StoredEvent } from '../../eventstore/port.ts';

/** One step of a stream's life as an auditor reads it: who, when, why, with which inputs. */
export type HistoryEntry = {
  position: string;
  revision: number;
  eventId: string;
  type: string;
  at: string;
  actor: Actor;
  correlationId: string;
  causationId: string;
  requestId: string;
  /** For generation steps: which model wrote it, real or offline, and the tokens it used. */
  generation: { provider: string; model: string | null; usage: unknown } | null;
  sources: { url: string; title: string }[] | null;
  data: Record<string, unknown>;
  /** The ids (`evt_…`) of the public events this step gave, as webhooks and the feed carry them; often none, sometimes two. */
  publicEventIds: string[];
};

export function toHistoryEntry(event: StoredEvent, publicEventIds: string[]): HistoryEntry {
  const generation = event.data.generation as HistoryEntry['generation'] | undefined;
  const sources = event.data.sources as HistoryEntry['sources'] | undefined;
  return {
    position: positionToText(event.position),
    revision: Number(event.revision),
    eventId: event.id,
    type: event.type,
    at: event.createdAt,
    actor: event.metadata.actor,
    correlationId: event.metadata.correlationId,
    causationId: event.metadata.causationId,
    requestId: event.metadata.requestId,
    generation: generation
      ? { provider: generation.provider, model: generation.model, usage: generation.usage }
      : null,
    sources: Array.isArray(sources) ? sources : null,
    data: event.data,
    publicEventIds,
  };
}

export function describeActor(actor: Actor): string {
  switch (actor.kind) {
    case 'api_key':
      return `API key ${actor.keyId}${actor.keyName ? ` (${actor.keyName})` : ''}`;
    case 'system':
      return `system: ${actor.worker}`;
    case 'github':
      return `GitHub user ${actor.login}`;
    case 'cli':
      return `CLI: ${actor.user}`;
    case 'member':
      return `member ${actor.memberId}`;
    default:
      return 'unknown';
  }
}
