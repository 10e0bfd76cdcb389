import { join } from 'node:path';
import { createInMemoryEventStore } from '../../src/eventstore/inMemory.ts';
import type { EventStore } from '../../src/eventstore/port.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import type { Stores } from '../../src/app/stores.ts';

/** What @eventstore/db-client throws while no node answers (UnavailableError carries type 'unavailable'). */
export const unavailable = () =>
  Object.assign(new Error('14 UNAVAILABLE: No connection established'), { type: 'unavailable' });

/**
 * Stores in process whose event log fails its first `failures` contacts with `error`, as a server
 * that is still starting does; the read store is a real SQLite file in `dir`.
 */
export function standIn(
  dir: string,
  failures: number,
  error: () => Error,
): { stores: Stores; contacts: () => number; log: EventStore } {
  const log = createInMemoryEventStore();
  let contacts = 0;
  const eventStore: EventStore = {
    ...log,
    async storeId(options) {
      contacts++;
      if (contacts <= failures) throw error();
      return log.storeId(options);
    },
  };
  const readStore = openSqliteReadStore(join(dir, `${Math.random().toString(36).slice(2)}.sqlite`));
  return {
    contacts: () => contacts,
    log,
    stores: {
      eventStore,
      readStore,
      kind: { events: 'esdb', reads: 'sqlite' },
      where: { events: 'the stand-in log', reads: 'SQLite' },
      close: () => readStore.close(),
    },
  };
}
