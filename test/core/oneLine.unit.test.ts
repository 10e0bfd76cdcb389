import fc from 'fast-check';
import { expect, test } from 'vitest';
import { oneLine } from '../../src/core/oneLine.ts';

const BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const SPECIALS = [
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u2066',
  ' ',
  'Co-authored-by: ',
];
const anyText = fc
  .array(
    fc.oneof(
      fc.constantFrom(...SPECIALS),
      fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
    ),
    { maxLength: 200 },
  )
  .map((parts) => parts.join(''));

test('any text becomes one line without control characters, within its bound', () => {
  fc.assert(
    fc.property(anyText, fc.integer({ min: 1, max: 120 }), (text, max) => {
      const line = oneLine(text, max);
      return !BREAKING.test(line) && [...line].length <= max && line === line.trim();
    }),
  );
});

test('a title with a trailer on its next line keeps the words on one line', () => {
  expect(oneLine('Tea\n\nCo-authored-by: Mallory <m@evil.example>\r\n', 200)).toBe(
    'Tea Co-authored-by: Mallory <m@evil.example>',
  );
  expect(oneLine('a\u2028b\u2029c\u202ed\te\u0085f', 200)).toBe('a b c d e f');
});

test('a long text is cut on a whole character and says so', () => {
  expect(oneLine('abcdef', 4)).toBe('abc…');
  expect(oneLine('ab😀😀', 3)).toBe('ab…');
  expect(oneLine('abc', 3)).toBe('abc');
});
