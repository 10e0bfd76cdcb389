import { expect, test } from 'vitest';
import { createEsdbEventStore } from '../../src/eventstore/esdb.ts';
import { WrongExpectedVersionError } from '../../src/eventstore/port.ts';
import { describeEventStoreContract } from './contract.ts';
import { createFakeEsdbClient } from './fakeEsdbClient.ts';
import { newEvent, rejectionOf } from './events.ts';

// The adapter's own logic (position mapping, the server-filtered read of $all, skipping system
// events, error mapping, the position of a retried append) against a client that behaves like the server.
describeEventStoreContract('esdb adapter over a fake client', async () =>
  createEsdbEventStore(createFakeEsdbClient()),
);

describeEventStoreContract('esdb adapter, a retry answered with the current revision', async () =>
  createEsdbEventStore(createFakeEsdbClient({ retryReports: 'current' })),
);

describeEventStoreContract('esdb adapter, a retry answered without a position', async () =>
  createEsdbEventStore(createFakeEsdbClient({ retryReports: 'original_without_position' })),
);

describeEventStoreContract(
  'esdb adapter on a server older than 23.10 (subscriptions never say "caught up")',
  async () => createEsdbEventStore(createFakeEsdbClient({ sendsCaughtUp: false })),
);

describeEventStoreContract('esdb adapter with throwOnAppendFailure=false', async () =>
  createEsdbEventStore(createFakeEsdbClient({ throwOnAppendFailure: false })),
);

test("with throwOnAppendFailure=false, a conflict reports the stream's real revision, not the client's 0 or 1", async () => {
  const store = createEsdbEventStore(createFakeEsdbClient({ throwOnAppendFailure: false }));
  await store.append(
    'project-1',
    [newEvent('A'), newEvent('B'), newEvent('C'), newEvent('D')],
    'no_stream',
  );
  const refused = await rejectionOf(store.append('project-1', [newEvent('E')], 1n));
  expect(refused).toBeInstanceOf(WrongExpectedVersionError);
  expect((refused as WrongExpectedVersionError).actual).toBe(3n);
  expect(
    (
      (await rejectionOf(
        store.append('project-2', [newEvent('E')], 0n),
      )) as WrongExpectedVersionError
    ).actual,
  ).toBe('no_stream');
});
