import { expect, test } from 'vitest';
import {
  handleCommand,
  type CommandContext,
  type StreamType,
} from '../../src/eventstore/handleCommand.ts';
import { createInMemoryEventStore } from '../../src/eventstore/inMemory.ts';
import type { EventStore } from '../../src/eventstore/port.ts';

type Counter = { created: boolean; count: number };
type CounterEvent =
  | { type: 'Created'; data: Record<string, never> }
  | { type: 'Incremented'; data: { by: number } };
type CounterCommand = { type: 'Create' } | { type: 'CreateOrIncrement' };

const counter: StreamType<Counter, CounterEvent, CounterCommand> = {
  category: 'counter',
  initial: () => ({ created: false, count: 0 }),
  evolve: (state, event) =>
    event.type === 'Created'
      ? { ...state, created: true }
      : { ...state, count: state.count + event.data.by },
  decide: (command, state) =>
    state.created ? [{ type: 'Incremented', data: { by: 1 } }] : [{ type: 'Created', data: {} }],
};

const context = (commandId: string): CommandContext => ({
  accountId: 'acc',
  actor: { kind: 'system', worker: 'test' },
  correlationId: 'c',
  requestId: 'r',
  commandId,
});

function countingReads(store: EventStore) {
  let reads = 0;
  return {
    store: {
      ...store,
      readStream: (...args: Parameters<EventStore['readStream']>) => {
        reads++;
        return store.readStream(...args);
      },
    },
    reads: () => reads,
  };
}

test('a command on a new stream appends without reading it first', async () => {
  const { store, reads } = countingReads(createInMemoryEventStore());
  const result = await handleCommand(store, counter, 'a', { type: 'Create' }, context('1'), {
    newStream: true,
  });
  expect(result.events.map((event) => event.type)).toEqual(['Created']);
  expect(reads()).toBe(0);
});

test('if the stream exists after all, it is read and the command decided again on its real state', async () => {
  const { store, reads } = countingReads(createInMemoryEventStore());
  await handleCommand(store, counter, 'b', { type: 'Create' }, context('1'));
  const result = await handleCommand(
    store,
    counter,
    'b',
    { type: 'CreateOrIncrement' },
    context('2'),
    { newStream: true },
  );
  expect(result.events.map((event) => event.type)).toEqual(['Incremented']);
  expect(result.state).toEqual({ created: true, count: 1 });
  expect(reads()).toBe(2);
  expect((await store.readStream('counter-b')).map((event) => event.type)).toEqual([
    'Created',
    'Incremented',
  ]);
});
