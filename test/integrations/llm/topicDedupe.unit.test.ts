import { expect, test } from 'vitest';
import { dedupeTopics, isNearDuplicate } from '../../../src/integrations/llm/topicDedupe.ts';

test('titles that differ only in framing, case or plurals are near-duplicates', () => {
  expect(isNearDuplicate({ title: 'Brewing Green Tea' }, { title: 'A practical guide to brewing green teas' })).toBe(true);
  expect(isNearDuplicate({ title: 'Green tea: common mistakes' }, { title: 'Green Tea Mistakes to Avoid' })).toBe(true);
});

test('two topics on the same keyword are near-duplicates, whatever their titles', () => {
  expect(isNearDuplicate({ title: 'Why steeping matters', keyword: 'Steeping Time' }, { title: 'Timing your brew', keyword: 'steeping times' })).toBe(true);
});

test('different subjects are kept apart', () => {
  expect(isNearDuplicate({ title: 'Brewing green tea', keyword: 'green tea' }, { title: 'Choosing an oolong', keyword: 'oolong' })).toBe(false);
  expect(isNearDuplicate({ title: 'Water temperature for tea' }, { title: 'Storing tea at home' })).toBe(false);
});

test('dedupe drops repeats of existing topics, rejected ones included, and of earlier candidates, up to the limit', () => {
  const candidates = [
    { title: 'Oolong for beginners', keyword: 'oolong' },
    { title: 'The complete guide to matcha', keyword: 'matcha' },
    { title: 'Oolong: a beginner guide', keyword: 'oolong tea' },
    { title: 'Storing tea at home', keyword: 'tea storage' },
    { title: 'Cold brew tea', keyword: 'cold brew' },
    { title: 'Tea and food pairing', keyword: 'tea pairing' },
  ];
  const existing = [{ title: 'Matcha, explained', keyword: 'matcha', status: 'rejected' }];
  expect(dedupeTopics(candidates, existing, 3).map((t) => t.title)).toEqual(['Oolong for beginners', 'Storing tea at home', 'Cold brew tea']);
});
