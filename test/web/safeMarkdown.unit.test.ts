import { expect, test } from 'vitest';
import { highlightFindings, safeUrl } from '../../web/src/article/safeMarkdown.ts';

type Node = {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: Node[];
  position?: { start: { offset: number }; end: { offset: number } };
};
const text = (value: string, start: number, end = start + value.length): Node => ({
  type: 'text',
  value,
  position: { start: { offset: start }, end: { offset: end } },
});
const paragraph = (...children: Node[]): Node => ({
  type: 'element',
  tagName: 'p',
  properties: {},
  children,
});
const run = (tree: { children: Node[] }, ranges: Parameters<typeof highlightFindings>[0]) => {
  highlightFindings(ranges)(tree as never);
  return tree;
};
const flat = (node: Node): string =>
  node.type === 'text'
    ? node.value!
    : node.tagName === 'mark'
      ? `[${node.children!.map(flat).join('')}]`
      : (node.children ?? []).map(flat).join('');

test('images keep only this origin or https; links lose javascript: and data:', () => {
  expect(safeUrl('http://tracker.example/x.png', 'src')).toBe('');
  expect(safeUrl('//tracker.example/x.png', 'src')).toBe('');
  expect(safeUrl('data:image/png;base64,AAAA', 'src')).toBe('');
  expect(safeUrl('/api/v1/x.png', 'src')).toBe('/api/v1/x.png');
  expect(safeUrl('https://cdn.example/x.png', 'src')).toBe('https://cdn.example/x.png');
  expect(safeUrl('javascript:alert(1)', 'href')).toBe('');
  expect(safeUrl('data:text/html,<script>', 'href')).toBe('');
  expect(safeUrl('https://acme.example/pricing', 'href')).toBe('https://acme.example/pricing');
});

test('a finding is marked exactly where its offsets fall, across the text nodes it spans, its id on the first mark', () => {
  // "One two. Three **four** five." with the finding "Three four five." at 9..29 of the source.
  const tree = {
    children: [
      paragraph(
        text('One two. Three ', 0),
        { type: 'element', tagName: 'strong', properties: {}, children: [text('four', 17)] },
        text(' five.', 23),
      ),
    ],
  };
  run(tree, [{ start: 9, end: 29, id: 'finding-0-0', status: 'fail' }]);
  expect(flat(tree.children[0])).toBe('One two. [Three ][four][ five.]');
  const marks = JSON.stringify(tree).match(/"id":"finding-0-0"/g);
  expect(marks).toHaveLength(1);
});

test('a text node whose source differs from its text (an escape) is marked whole, never cut at a wrong offset', () => {
  const tree = { children: [paragraph(text('Price {5} today.', 0, 18))] }; // source "Price \\{5\\} today."
  run(tree, [{ start: 6, end: 11, id: 'finding-1-0', status: 'warn' }]);
  expect(flat(tree.children[0])).toBe('[Price {5} today.]');
});

test('no finding leaves the tree untouched', () => {
  const tree = { children: [paragraph(text('Plain.', 0))] };
  expect(flat(run(tree, []).children[0])).toBe('Plain.');
});
