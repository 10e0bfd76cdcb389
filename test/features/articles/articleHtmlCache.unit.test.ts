import { expect, test } from 'vitest';
import { createArticleHtmlCache } from '../../../src/features/articles/articleHtmlCache.ts';

const article = (id: string, version: number, body: string) => ({ id, version, body });

test('a version is rendered once and kept; a new version is rendered anew', async () => {
  const cache = createArticleHtmlCache(10, 10_000);
  expect(await cache.html(article('art_1', 1, 'First *draft*.'))).toBe(
    '<p>First <em>draft</em>.</p>',
  );
  // The same id and version is the same text: what was kept is served, whatever body is passed.
  expect(await cache.html(article('art_1', 1, 'ignored'))).toBe('<p>First <em>draft</em>.</p>');
  expect(await cache.html(article('art_1', 2, 'Revised.'))).toBe('<p>Revised.</p>');
  expect(cache.size).toBe(2);
});

test('the cache keeps at most its entries and its characters, the least recently used dropped first', async () => {
  const cache = createArticleHtmlCache(3, 10_000);
  for (const id of ['a', 'b', 'c']) await cache.html(article(id, 1, id));
  await cache.html(article('a', 1, 'a')); // a used again: b is now the oldest
  await cache.html(article('d', 1, 'd'));
  expect(cache.size).toBe(3);
  expect(await cache.html(article('b', 1, 'b was dropped'))).toBe('<p>b was dropped</p>');
  expect(await cache.html(article('a', 1, 'a was kept?'))).toBe('<p>a</p>');

  const small = createArticleHtmlCache(100, 50);
  await small.html(article('x', 1, 'x'.repeat(30)));
  await small.html(article('y', 1, 'y'.repeat(30)));
  expect(small.size).toBe(1); // two would be over 50 characters
  await small.html(article('huge', 1, 'z'.repeat(100)));
  expect(small.size).toBe(1); // larger than the whole bound: rendered, not kept
});
