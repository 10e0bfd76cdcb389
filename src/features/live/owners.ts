import { streamCategory, type EventStore, type StoredEvent } from '../../eventstore/port.ts';
import { PROJECT_CATEGORY } from '../../domain/projects/project.ts';
import { entityIdOf, ownerFromFirstEvent, type Owner } from './changes.ts';

/** Owners remembered per process; the oldest are forgotten past this many (each is a few ids). */
const REMEMBERED = 50_000;

export type Owners = { of(event: StoredEvent): Promise<Owner | null> };

/**
 * The project (and topic) of each article and topic. Only their first event names it, so it is
 * remembered as first events pass and otherwise read from the stream's first event, which is
 * always in the log (a read model might not have caught up with it yet).
 */
export function createOwners(store: Pick<EventStore, 'readStream'>): Owners {
  const known = new Map<string, Owner>();
  const remember = (stream: string, owner: Owner) => {
    known.set(stream, owner);
    if (known.size > REMEMBERED) known.delete(known.keys().next().value!);
  };
  return {
    async of(event) {
      if (streamCategory(event.stream) === PROJECT_CATEGORY)
        return { projectId: entityIdOf(event) };
      const cached = known.get(event.stream);
      if (cached) return cached;
      const [first] =
        event.revision === 0n ? [event] : await store.readStream(event.stream, { maxCount: 1 });
      const owner = first ? ownerFromFirstEvent(first) : null;
      if (owner) remember(event.stream, owner);
      return owner;
    },
  };
}
