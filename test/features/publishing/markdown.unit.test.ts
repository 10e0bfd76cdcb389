import { expect, test } from 'vitest';
import { codeSpan, markdownLink, markdownText } from '../../../src/features/publishing/markdown.ts';

test('outside text cannot become HTML, a link, an image, emphasis or a table cell break', () => {
  expect(markdownText('<!-- inkstream:revision:x --> ![a](b) *c* | d', 200)).toBe(
    String.raw`\<!-- inkstream:revision:x --\> !\[a\]\(b\) \*c\* \| d`,
  );
});

test('at the start of a line it cannot become a heading or a list', () => {
  expect(markdownText('# Title', 50)).toBe('\\# Title');
  expect(markdownText('- item', 50)).toBe('\\- item');
  expect(markdownText('12. item', 50)).toBe('12\\. item');
  expect(markdownText('well-known, 1. fine', 50)).toBe('well-known, 1. fine');
});

test('a code span is fenced longer than the backtick runs inside it', () => {
  expect(codeSpan('tea', 50)).toBe('`tea`');
  expect(codeSpan('a ``b`` c', 50)).toBe('``` a ``b`` c ```');
});

test('links go only to http(s), with parentheses and spaces percent-encoded', () => {
  expect(markdownLink('Guide', 'https://example.com/a(b)c?q=)x{1}', 50)).toBe(
    '[Guide](https://example.com/a%28b%29c?q=%29x{1})',
  );
  expect(markdownLink('Click', 'javascript:alert(1)', 50)).toBe('Click');
  expect(markdownLink('', 'https://example.com/', 50)).toBe(
    '[https://example.com/](https://example.com/)',
  );
});
