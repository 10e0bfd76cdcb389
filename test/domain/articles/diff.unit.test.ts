import fc from 'fast-check';
import { expect, test } from 'vitest';
import { diffSummary, unifiedDiff } from '../../../src/domain/articles/diff.ts';

const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n';
const after = 'one\ntwo\nthree\nfour\nFIVE and more\nsix\nseven\neight\nnine\nten\neleven\n';

test('the summary counts added and removed lines and words', () => {
  expect(diffSummary(before, after)).toEqual({
    addedLines: 2,
    removedLines: 1,
    addedWords: 4,
    removedWords: 1,
    changed: true,
  });
  expect(diffSummary(before, before)).toEqual({
    addedLines: 0,
    removedLines: 0,
    addedWords: 0,
    removedWords: 0,
    changed: false,
  });
});

test('the unified diff has diff -u hunks with three lines of context', () => {
  expect(unifiedDiff(before, after, { from: 'v1', to: 'v2' })).toBe(
    [
      '--- v1',
      '+++ v2',
      '@@ -2,9 +2,10 @@',
      ' two',
      ' three',
      ' four',
      '-five',
      '+FIVE and more',
      ' six',
      ' seven',
      ' eight',
      ' nine',
      ' ten',
      '+eleven',
      '',
    ].join('\n'),
  );
  expect(unifiedDiff(before, before)).toBe('');
});

test('distant changes get separate hunks; an empty side counts from zero', () => {
  const long = Array.from({ length: 30 }, (_, i) => `line ${i}`);
  const changed = long.map((line, i) => (i === 2 || i === 25 ? `${line}!` : line));
  expect(unifiedDiff(long.join('\n'), changed.join('\n')).match(/^@@/gm)).toHaveLength(2);
  expect(unifiedDiff('', 'a\nb\n')).toBe('--- before\n+++ after\n@@ -0,0 +1,2 @@\n+a\n+b\n');
});

test('the line diff is an edit script: kept plus removed lines rebuild the old text, kept plus added the new', () => {
  const text = fc
    .array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 30 })
    .map((lines) => lines.join('\n'));
  fc.assert(
    fc.property(text, text, (a, b) => {
      const body = unifiedDiff(a, b, {}, 1_000_000).split('\n').slice(3, -1);
      const side = (skip: string) =>
        body
          .filter((line) => !line.startsWith(skip))
          .map((line) => line.slice(1))
          .join('\n');
      if (a === b) return unifiedDiff(a, b) === '';
      return side('+') === a && side('-') === b;
    }),
  );
});
