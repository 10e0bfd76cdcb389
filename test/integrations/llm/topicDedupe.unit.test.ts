import { expect, test } from 'vitest';
import {
  dedupeTopics,
  indexPages,
  isNearDuplicate,
  overlappingIndexedPage,
  overlappingPage,
  overlapsPage,
} from '../../../src/integrations/llm/topicDedupe.ts';

test('titles that differ only in framing, case or plurals are near-duplicates', () => {
  expect(
    isNearDuplicate(
      { title: 'Brewing Green Tea' },
      { title: 'A practical guide to brewing green teas' },
    ),
  ).toBe(true);
  expect(
    isNearDuplicate(
      { title: 'Green tea: common mistakes' },
      { title: 'Green Tea Mistakes to Avoid' },
    ),
  ).toBe(true);
});

test('two topics on the same keyword are near-duplicates, whatever their titles', () => {
  expect(
    isNearDuplicate(
      { title: 'Why steeping matters', keyword: 'Steeping Time' },
      { title: 'Timing your brew', keyword: 'steeping times' },
    ),
  ).toBe(true);
});

test('different subjects are kept apart', () => {
  expect(
    isNearDuplicate(
      { title: 'Brewing green tea', keyword: 'green tea' },
      { title: 'Choosing an oolong', keyword: 'oolong' },
    ),
  ).toBe(false);
  expect(
    isNearDuplicate({ title: 'Water temperature for tea' }, { title: 'Storing tea at home' }),
  ).toBe(false);
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
  expect(dedupeTopics(candidates, existing, 3).map((t) => t.title)).toEqual([
    'Oolong for beginners',
    'Storing tea at home',
    'Cold brew tea',
  ]);
});

test.each([
  [
    'How to Brew Green Tea: A Complete Guide',
    {
      url: 'https://fernleaf.example/blog/brewing-green-tea',
      title: 'The perfect cup | Fernleaf Tea',
    },
    true,
  ],
  [
    'Costing: A Practical Guide',
    { url: 'https://farm.example/guides/ec', title: 'Enterprise costing for mixed farms' },
    true,
  ],
  [
    'Green tea mistakes',
    {
      url: 'https://fernleaf.example/x',
      title: 'Shop | Fernleaf',
      heading: 'Common green tea mistakes',
    },
    true,
  ],
  [
    'The Complete Guide',
    { url: 'https://farm.example/guides/ec', title: 'Enterprise costing for mixed farms' },
    false,
  ],
  [
    'Costing sheep for show classes',
    { url: 'https://farm.example/guides/ec', title: 'Enterprise costing for mixed farms' },
    false,
  ],
  [
    'Tea from Fernleaf',
    {
      url: 'https://fernleaf.example/',
      title: 'Fernleaf Tea | Single-estate loose-leaf tea',
      heading: 'Fernleaf Tea',
    },
    true,
  ],
])('"%s" against a page %o overlaps: %s', (title, page, expected) => {
  expect(overlapsPage({ title }, page)).toBe(expected);
});

test("dedupe compares the site's pages (entries with a url) by their title, first heading and URL, and still drops rejected topics", () => {
  const existing = [
    {
      title: 'The perfect cup | Fernleaf Tea',
      status: 'page on the site',
      url: 'https://fernleaf.example/blog/brewing-green-tea',
    },
    { title: 'Oolong for beginners', status: 'rejected' },
  ];
  const kept = dedupeTopics(
    [
      { title: 'Green Tea Brewing Made Simple' },
      { title: "A beginner's guide to oolong" },
      { title: 'Matcha grades explained' },
    ],
    existing,
    5,
  );
  expect(kept.map((topic) => topic.title)).toEqual(['Matcha grades explained']);
});

test('pages found by the words of their names give the same first overlap as comparing with every page', () => {
  const pages = [
    {
      url: 'https://fernleaf.example/blog/brewing-green-tea',
      title: 'The perfect cup | Fernleaf Tea',
    },
    { url: 'content/blog/matcha-whisks.mdx', title: 'Choosing a matcha whisk' },
    {
      url: 'https://fernleaf.example/x',
      title: 'Shop | Fernleaf',
      heading: 'Common green tea mistakes',
    },
    { url: 'https://fernleaf.example/the', title: 'The' },
    { url: 'content/blog/steeping.mdx', title: 'Steeping time' },
    { url: 'https://farm.example/guides/ec', title: 'Enterprise costing for mixed farms' },
  ];
  const topics = [
    { title: 'How to Brew Green Tea: A Complete Guide' },
    { title: 'Green tea mistakes' },
    { title: 'Matcha whisks' },
    { title: 'Why it matters', keyword: 'steeping times' },
    { title: 'The', keyword: 'green tea' },
    { title: 'Of the' },
    { title: 'Costing: A Practical Guide' },
    { title: 'The Complete Guide' },
    { title: 'Oolong at home' },
    { title: 'Brewing' },
  ];
  const index = indexPages(pages);
  for (const topic of topics)
    expect(overlappingIndexedPage(topic, index), topic.title).toBe(overlappingPage(topic, pages));
  // A title with no words is compared with every page: the first with a nameless part (the URL /x) matches.
  expect(overlappingIndexedPage({ title: 'Of the' }, index)).toBe(pages[2]);
  expect(overlappingIndexedPage({ title: 'Oolong at home' }, index)).toBeNull();
});
