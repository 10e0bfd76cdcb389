import { createEsdbEventStore } from '../../src/eventstore/esdb.ts';
import { describeEventStoreContract } from './contract.ts';
import { createFakeEsdbClient } from './fakeEsdbClient.ts';

// The adapter's own logic (position mapping, paging through $all, skipping system events, error
// mapping, the position of a retried append) against a client that behaves like the server.
describeEventStoreContract('esdb adapter over a fake client', async () => createEsdbEventStore(createFakeEsdbClient()));
