import { MongoServerError } from 'mongodb';
import { expect, test } from 'vitest';
import { readAgainIfSwapped } from '../../src/readstore/mongoQuery.ts';

/** A read that fails the first `failures` times with this server error, then answers. */
function readFailing(failures: number, code: number) {
  let calls = 0;
  const read = async () => {
    calls++;
    if (calls <= failures)
      throw new MongoServerError({
        code,
        errmsg: 'PlanExecutor error during find command :: caused by :: collection dropped',
      });
    return ['rebuilt'];
  };
  return { read, calls: () => calls };
}

test('a read whose cursor a swap invalidated is read once more, and answers from the swapped-in collection', async () => {
  for (const code of [43, 175, 237]) {
    const once = readFailing(1, code);
    expect(await readAgainIfSwapped(once.read)).toEqual(['rebuilt']);
    expect(once.calls()).toBe(2);
  }
});

test('any other error, and a second invalidation in a row, reach the caller', async () => {
  const other = readFailing(1, 13); // Unauthorized
  await expect(readAgainIfSwapped(other.read)).rejects.toMatchObject({ code: 13 });
  expect(other.calls()).toBe(1);
  const twice = readFailing(2, 175);
  await expect(readAgainIfSwapped(twice.read)).rejects.toMatchObject({ code: 175 });
  expect(twice.calls()).toBe(2);
});
