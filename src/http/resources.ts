import { AppError } from '../core/errors.ts';
import type { AppendedEvent } from '../eventstore/handleCommand.ts';
import type { StoredEvent } from '../eventstore/port.ts';
import type { Doc, ReadStore } from '../readstore/port.ts';
import { withoutBookkeeping, type Projection } from '../readstore/projection.ts';
import type { AuthContext } from './auth.ts';

/** A read-model document of the caller's account, or 404: another account's ids do not exist for you. */
export async function ownedDoc<D extends Doc & { accountId: string }>(
  readStore: ReadStore,
  collection: string,
  id: string,
  auth: AuthContext,
  label: string,
): Promise<D> {
  const doc = await readStore.get<D>(collection, id);
  if (!doc || doc.accountId !== auth.accountId)
    throw new AppError('not_found', `No ${label} ${id} in this account.`);
  return doc;
}

/**
 * A command's response comes from the decided state: the events it just appended are folded
 * onto the document with the read model's own pure projection, without waiting for the runner.
 */
export function applyAppended<D extends Doc>(
  projection: Projection<D>,
  doc: D | null,
  events: readonly AppendedEvent[],
): D | null {
  return events.reduce<D | null>(
    (current, event) =>
      projection.evolve(current, {
        ...event,
        position: -1n,
        createdAt: String(event.data.at ?? ''),
      } as StoredEvent),
    doc,
  );
}

export function present<D extends Doc>(doc: D): Omit<D, '_position'> {
  return withoutBookkeeping(doc);
}

/**
 * Metadata for the events a request appends. With an Idempotency-Key the command id (and so
 * every event id) is derived from the key, so a retried request cannot append twice.
 */
export function commandContext(
  input: {
    auth: AuthContext;
    requestId: string;
    request: { get(name: string): string | undefined };
  },
  step = 'main',
) {
  const idempotencyKey = input.request.get('idempotency-key');
  const base = idempotencyKey ? `idem:${input.auth.accountId}:${idempotencyKey}` : input.requestId;
  return {
    accountId: input.auth.accountId,
    actor: input.auth.actor,
    correlationId: input.requestId,
    requestId: input.requestId,
    commandId: `${base}:${step}`,
  };
}
