import { expect, test } from 'vitest';
import { createArticleResponseCache } from '../../../src/features/articles/responseCache.ts';

const current = (head: bigint) => ({ head, readModelsCurrent: true });
const json = (text: string) => Buffer.from(text);

test('an entry answers only at the head it was read at, and only its own account', () => {
  const cache = createArticleResponseCache(10);
  cache.set('art_a', 'acc_1', current(5n), json('{"v":1}'));
  expect(cache.get('art_a', 'acc_1', current(5n))?.toString()).toBe('{"v":1}');
  expect(cache.get('art_a', 'acc_1', current(6n))).toBeNull();
  expect(cache.get('art_a', 'acc_2', current(5n))).toBeNull();
});

test('nothing read while the read models lagged is kept or served', () => {
  const cache = createArticleResponseCache(10);
  cache.set('art_a', 'acc_1', { head: 5n, readModelsCurrent: false }, json('{}'));
  expect(cache.get('art_a', 'acc_1', current(5n))).toBeNull();
  cache.set('art_a', 'acc_1', current(5n), json('{}'));
  expect(cache.get('art_a', 'acc_1', { head: 5n, readModelsCurrent: false })).toBeNull();
});

test('beyond its size the oldest entry goes first', () => {
  const cache = createArticleResponseCache(2);
  for (const id of ['art_a', 'art_b', 'art_c']) cache.set(id, 'acc_1', current(1n), json(id));
  expect(cache.get('art_a', 'acc_1', current(1n))).toBeNull();
  expect(cache.get('art_c', 'acc_1', current(1n))?.toString()).toBe('art_c');
});
