import { expect, test } from 'vitest';
import { chunksOf } from '../../../src/integrations/llm/pageChunks.ts';

const page = (text: string) => ({
  url: 'https://farm.example/guide',
  title: 'Guide',
  headings: [],
  text,
});

test('a page is cut at its headings, each chunk knowing the headings above it', () => {
  const chunks = chunksOf(
    page(
      'Intro line.\n\n## Costs\n\nSplit them.\n\n### Feed\n\nFeed is most.\n\n## Sales\n\nSell early.',
    ),
    1_500,
  );
  expect(chunks.map((chunk) => [chunk.headings.join(' › '), chunk.text])).toEqual([
    ['', 'Intro line.'],
    ['Costs', '## Costs\n\nSplit them.'],
    ['Costs › Feed', '### Feed\n\nFeed is most.'],
    ['Sales', '## Sales\n\nSell early.'],
  ]);
});

test('a "#" line inside a fenced code block is not a heading', () => {
  const chunks = chunksOf(page('## Setup\n\n```sh\n# install\nnpm i\n```\n\nDone.'), 1_500);
  expect(chunks).toHaveLength(1);
  expect(chunks[0].text).toContain('# install');
});

test('a long section is cut at paragraphs, then lines, then words, no piece over the limit, nothing lost', () => {
  const long = `## Long\n\n${Array.from({ length: 30 }, (_, i) => `Paragraph ${i} says something useful about drainage.`).join('\n\n')}\n\n${'word '.repeat(200).trim()}`;
  const chunks = chunksOf(page(long), 300);
  expect(chunks.every((chunk) => chunk.text.length <= 300 && chunk.headings[0] === 'Long')).toBe(
    true,
  );
  expect(
    chunks
      .map((chunk) => chunk.text)
      .join(' ')
      .match(/Paragraph \d+/g),
  ).toHaveLength(30);
  expect(
    chunks
      .map((chunk) => chunk.text)
      .join(' ')
      .match(/word/g),
  ).toHaveLength(200);
});

test('text crawled before pages were kept as Markdown (one block a line) is cut at lines', () => {
  const chunks = chunksOf(
    page(Array.from({ length: 20 }, (_, i) => `Line ${i} of the old plain text.`).join('\n')),
    200,
  );
  expect(chunks.length).toBeGreaterThan(1);
  expect(chunks.every((chunk) => chunk.text.length <= 200)).toBe(true);
});
