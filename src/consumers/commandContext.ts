import type { CommandContext } from '../eventstore/handleCommand.ts';
import type { StoredEvent } from '../eventstore/port.ts';

/**
 * The context of a command a process manager issues in reaction to `event`. The command id (and
 * so every event id it appends) is derived from the causing event and the step, so a redelivered
 * event cannot append twice.
 */
export function reactionContext(event: StoredEvent, worker: string, step: string): CommandContext {
  return {
    accountId: event.metadata.accountId,
    actor: { kind: 'system', worker },
    correlationId: event.metadata.correlationId,
    requestId: event.metadata.requestId,
    causationId: event.id,
    commandId: `${event.id}:${step}`,
  };
}

/** The same, for a command keyed by something steadier than the trigger (a revision id, a slot). */
export function keyedContext(event: StoredEvent, worker: string, key: string): CommandContext {
  return { ...reactionContext(event, worker, key), commandId: `${worker}:${key}` };
}
