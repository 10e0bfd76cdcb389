import { expect, test } from 'vitest';
import { createEsdbEventStore } from '../../src/eventstore/esdb.ts';
import { streamCategory, streamName } from '../../src/eventstore/port.ts';
import { createFakeEsdbClient } from './fakeEsdbClient.ts';
import { newEvent, rejectionOf, uniqueCategory } from './events.ts';

// Reading $all on EventStoreDB: the category filter runs on the server (a filtered catch-up
// subscription), positions are taken as $all reports them, and nothing assumes they are gapless.

async function storeWithNoise(options: Parameters<typeof createFakeEsdbClient>[0] = {}) {
  const client = createFakeEsdbClient(options);
  const store = createEsdbEventStore(client);
  const noise = async (count: number) => {
    for (let n = 0; n < count; n++)
      await store.append(
        streamName(uniqueCategory('noise'), 'x'),
        [newEvent('Noise')],
        'no_stream',
      );
  };
  return { client, store, noise };
}

test('a category read sends a stream-name filter and the server sends no event of another stream', async () => {
  const { client, store, noise } = await storeWithNoise();
  const wanted = uniqueCategory('wanted');
  const lookalike = `${wanted}s`; // same prefix, another category
  await noise(5);
  const head = await store.headPosition();
  await store.append(streamName(wanted, '1'), [newEvent('W1')], 'no_stream');
  await store.append(streamName(lookalike, '1'), [newEvent('L1')], 'no_stream');
  await noise(100);
  await store.append(wanted, [newEvent('W2')], 'no_stream'); // a stream named by its category alone
  await noise(3);

  const sentBefore = client.wire.sent.length;
  const read = await store.readAll({ after: head, categories: [wanted] });

  expect(read.map((event) => event.type)).toEqual(['W1', 'W2']);
  const subscription = client.wire.subscriptions.at(-1);
  expect(subscription?.filter).toMatchObject({ filterOn: 'streamName' });
  const sent = client.wire.sent.slice(sentBefore);
  expect(sent.length).toBeGreaterThan(0);
  expect(sent.every((event) => streamCategory(event.streamId) === wanted)).toBe(true); // no noise, no lookalike, no $ce- links
});

test('a read of every category is filtered too: system streams ($ce- links, $stats) never cross the wire', async () => {
  const { client, store, noise } = await storeWithNoise();
  const head = await store.headPosition();
  await noise(40);
  const sentBefore = client.wire.sent.length;
  const read = await store.readAll({ after: head });
  expect(read).toHaveLength(40);
  expect(client.wire.sent.slice(sentBefore).some((event) => event.streamId.startsWith('$'))).toBe(
    false,
  );
});

test('a sparse category behind many other events is read to the end on a server older than 23.10 (no "caught up", a checkpoint instead)', async () => {
  const { client, store, noise } = await storeWithNoise({ sendsCaughtUp: false });
  const rare = uniqueCategory('rare');
  const head = await store.headPosition();
  await store.append(streamName(rare, '1'), [newEvent('R1')], 'no_stream');
  await noise(150); // several filter windows, all filtered out on the server

  expect(
    (await store.readAll({ after: head, categories: [rare] })).map((event) => event.type),
  ).toEqual(['R1']);
  const last = (await store.readAll({ after: head, categories: [rare] }))[0].position;
  expect(await store.readAll({ after: last, categories: [rare] })).toEqual([]);
  expect(client.wire.subscriptions.length).toBeGreaterThan(0);
});

test('a poll that finds nothing new opens no subscription', async () => {
  const { client, store, noise } = await storeWithNoise();
  await noise(3);
  const head = await store.headPosition();
  const opened = client.wire.subscriptions.length;
  expect(await store.readAll({ after: head, categories: ['noise'] })).toEqual([]);
  expect(await store.readAll({ after: head })).toEqual([]);
  expect(client.wire.subscriptions.length).toBe(opened);
});

test('positions jump by record sizes, and a read after any position, even one between events, starts at the next event', async () => {
  const { store } = await storeWithNoise();
  const category = uniqueCategory();
  const head = await store.headPosition();
  const first = await store.append(
    streamName(category, 'a'),
    [newEvent('A1'), newEvent('A2')],
    'no_stream',
  );
  const second = await store.append(streamName(category, 'b'), [newEvent('B1')], 'no_stream');
  const read = await store.readAll({ after: head, categories: [category] });
  expect(read.map((event) => event.type)).toEqual(['A1', 'A2', 'B1']);
  expect(read[1].position).toBe(first.position); // an append reports its last event's position in $all
  expect(read[2].position).toBe(second.position);
  expect(read[1].position - read[0].position).toBeGreaterThan(1n); // not gapless

  // An export "from position p" reads after p - 1, which is no event's position.
  expect(
    (await store.readAll({ after: read[1].position - 1n, categories: [category] })).map(
      (event) => event.type,
    ),
  ).toEqual(['A2', 'B1']);
  expect(
    (await store.readAll({ after: read[1].position + 1n, categories: [category] })).map(
      (event) => event.type,
    ),
  ).toEqual(['B1']);
  expect(
    (await store.readAll({ after: read[0].position, maxCount: 1, categories: [category] })).map(
      (event) => event.type,
    ),
  ).toEqual(['A2']);
});

test('an event of a legacy explicit transaction (commit position shared, prepare its own) is refused, never given a shared position', async () => {
  const { client, store } = await storeWithNoise();
  const category = uniqueCategory();
  const head = await store.headPosition();
  client.wire.appendExplicitTransaction(streamName(category, 'legacy'), ['T1', 'T2']);
  const error = await rejectionOf(store.readAll({ after: head, categories: [category] }));
  expect(String(error)).toContain('explicit transaction');
  expect(String(error)).toContain(`${category}-legacy@0`);
});
