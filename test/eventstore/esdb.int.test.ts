import { describe } from 'vitest';
import { openEsdbEventStore } from '../../src/eventstore/esdb.ts';
import { describeEventStoreContract } from './contract.ts';

const url = process.env.EVENTSTORE_URL;

// Needs a running EventStoreDB (22.10+), e.g. EVENTSTORE_URL=esdb://localhost:2113?tls=false
describe.skipIf(!url)('EventStoreDB adapter', () => {
  describeEventStoreContract('esdb', async () => openEsdbEventStore(url as string));
});
