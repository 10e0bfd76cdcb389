import { afterEach, beforeEach, describe } from 'vitest';
import type { EventStore } from '../../src/eventstore/port.ts';
import { appendContract } from './contractAppend.ts';
import { concurrencyContract } from './contractConcurrency.ts';
import { embeddedContract } from './contractEmbedded.ts';
import { identityContract } from './contractIdentity.ts';
import { readContract } from './contractRead.ts';

export type ContractOptions = {
  /**
   * The store is one of ours (SQLite, in-memory): each open() gives an empty log, positions are
   * gapless from 0 and event ids are unique across the log. EventStoreDB is shared between runs
   * and its positions are byte offsets, so those tests are left out for it.
   */
  embedded?: boolean;
};

export type CurrentStore = () => EventStore;

/** One suite every EventStore adapter passes; each test works in categories no other test uses. */
export function describeEventStoreContract(
  name: string,
  open: () => Promise<EventStore>,
  options: ContractOptions = {},
): void {
  describe(`${name} event store`, () => {
    let store: EventStore | undefined;
    const current: CurrentStore = () => {
      if (!store) throw new Error('the store is opened in beforeEach');
      return store;
    };
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });

    appendContract(current);
    readContract(current);
    concurrencyContract(current);
    identityContract(current, options);
    if (options.embedded) embeddedContract(current);
  });
}
