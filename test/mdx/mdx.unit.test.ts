import { expect, test } from 'vitest';
import { buildMdx, countWords, parseMdx, slugify } from '../../src/mdx/mdx.ts';
import type { ArticleFrontmatter } from '../../src/mdx/mdx.ts';

const frontmatter: ArticleFrontmatter = {
  title: 'Green Tea: "Cool" Water & Short Steeps',
  description: 'Why cooler water: a guide.',
  slug: 'green-tea-cool-water-and-short-steeps',
  date: '2026-03-01',
  keyword: 'green tea',
  tags: ['green tea', 'brewing'],
  cover: '/covers/green-tea.png',
  author: 'Fernleaf Tea',
  generator: { provider: 'offline', model: 'inkstream-offline-1' },
};

test('an MDX file is frontmatter then body, and parses back to the same values', () => {
  const mdx = buildMdx(frontmatter, '## Water\n\nCooler is better.\n');
  expect(mdx.startsWith('---\ntitle: ')).toBe(true);
  expect(mdx).toContain('generator:\n  provider: offline\n  model: inkstream-offline-1');
  expect(mdx.endsWith('## Water\n\nCooler is better.\n')).toBe(true);
  expect(parseMdx(mdx)).toEqual({ frontmatter, body: '## Water\n\nCooler is better.\n' });
});

test('hand-written frontmatter keeps extra keys, and YAML dates come back as text', () => {
  const mdx =
    '---\ntitle: T\ndescription: D\nslug: t\ndate: 2026-03-01\nkeyword: k\ntags: []\nauthor: A\ndraft: true\ngenerator:\n  provider: openai\n  model: gpt-4o-mini\n---\nBody\n';
  const parsed = parseMdx(mdx);
  expect(parsed.frontmatter.date).toBe('2026-03-01');
  expect(parsed.frontmatter.draft).toBe(true);
  expect(parsed.body).toBe('Body\n');
});

test('frontmatter without a generator is rejected, naming the field', () => {
  expect(() => parseMdx('---\ntitle: T\n---\nBody')).toThrow(/generator/);
});

test('slugs are lowercase ASCII words joined by dashes', () => {
  expect(slugify('Crème Brûlée: 10 Façons & More!')).toBe('creme-brulee-10-facons-and-more');
  expect(slugify("Don't Panic")).toBe('dont-panic');
  expect(slugify('???')).toBe('article');
  expect(slugify('word '.repeat(40)).length).toBeLessThanOrEqual(80);
});

test('word count ignores markdown syntax, link targets, code and tags', () => {
  expect(
    countWords(
      '## Two words\n\nSee [the guide](https://x.example/a-b-c) now.\n\n```ts\nconst ignored = 1;\n```\n<Callout>hi</Callout>',
    ),
  ).toBe(7);
  expect(countWords("It's a well-known tea.")).toBe(4);
});
