import { expect, test } from 'vitest';
import { createConsistency } from '../../src/http/consistency.ts';

function fakes(initialHead: bigint) {
  const state = { head: initialHead, headReads: 0, waits: [] as bigint[] };
  const platform = {
    eventStore: {
      headPosition: async () => {
        state.headReads++;
        return state.head;
      },
    },
    readModels: {
      catchUp: async (_timeoutMs: number, upTo: bigint) => {
        state.waits.push(upTo);
        return true;
      },
    },
    config: { INKSTREAM_READ_WAIT_MS: 100 },
  } as unknown as Parameters<typeof createConsistency>[0];
  return { state, consistencyOfRequest: createConsistency(platform) };
}

test('requests that arrive in one turn share one read of the head, made after all of them arrived; a later one reads again', async () => {
  const { state, consistencyOfRequest } = fakes(5n);
  const first = consistencyOfRequest();
  state.head = 6n; // appended after the first request arrived, before the second
  const second = consistencyOfRequest();
  expect([(await first).head, (await second).head]).toEqual([6n, 6n]);
  expect(state.headReads).toBe(1);
  state.head = 7n;
  expect((await consistencyOfRequest()).head).toBe(7n);
  expect(state.headReads).toBe(2);
});

test('a request waits for the read models once, and not at all at a head they are known to have reached', async () => {
  const { state, consistencyOfRequest } = fakes(3n);
  const consistency = await consistencyOfRequest();
  expect(await consistency.readModelsCurrent()).toBe(true);
  expect(await consistency.readModelsCurrent()).toBe(true);
  expect(state.waits).toEqual([3n]);
  expect(await (await consistencyOfRequest()).readModelsCurrent()).toBe(true);
  expect(state.waits).toEqual([3n]);
  state.head = 4n;
  expect(await (await consistencyOfRequest()).readModelsCurrent()).toBe(true);
  expect(state.waits).toEqual([3n, 4n]);
});
