import { expect, test } from 'vitest';
import { buildMdx, parseMdx, slugify } from '../../../../src/mdx/mdx.ts';
import {
  createOfflineWriter,
  OFFLINE_MODEL,
} from '../../../../src/integrations/llm/offline/index.ts';
import { isNearDuplicate } from '../../../../src/integrations/llm/topicDedupe.ts';
import { fernleafBrand as brand, fernleafPages as pages } from '../../../support/brandFixture.ts';
import { codeOfText } from '../../../../src/mdx/neutralise.ts';

const writer = createOfflineWriter();
const topic = {
  title: 'How to Brew Green Tea Without Bitterness',
  keyword: 'green tea',
  brief: 'Temperature, time and leaf.',
};

test('topic suggestions come from what the site talks about, 5 to 10, none repeating an existing or rejected topic', async () => {
  const existingTopics = [
    { title: 'Water temperature, explained', keyword: 'water temperature', status: 'rejected' },
    { title: 'Green tea basics', keyword: 'green tea', status: 'approved' },
  ];
  const result = await writer.suggestTopics({ brand, pages, existingTopics, count: 7 });
  expect(result).toMatchObject({
    provider: 'offline',
    model: OFFLINE_MODEL,
    usage: { totalTokens: 0 },
  });
  expect(result.topics).toHaveLength(7);
  for (const suggestion of result.topics) {
    expect(existingTopics.some((existing) => isNearDuplicate(suggestion, existing))).toBe(false);
    expect(suggestion.brief.length).toBeGreaterThan(20);
    expect(suggestion.rationale).toMatch(/pages|brand|offering/);
  }
  expect(result.topics.map((t) => t.keyword)).toContain('steeping time');
  const titles = result.topics.map((t) => t.title).join(' ');
  expect(titles).not.toMatch(/!|synergy|revolutionary|leverage/i);
});

test('the count is held between 5 and 10, and a site with no pages still gets topics from the brand', async () => {
  expect(
    (await writer.suggestTopics({ brand, pages, existingTopics: [], count: 50 })).topics.length,
  ).toBeLessThanOrEqual(10);
  const bare = await writer.suggestTopics({ brand, pages: [], existingTopics: [], count: 1 });
  expect(bare.topics.length).toBe(5);
});

test('research draws its sources from the crawled pages about the topic', async () => {
  const research = await writer.researchArticle({ topic, brand, pages });
  expect(research.sources.map((s) => s.url)).toContain(
    'https://fernleaf.example/guides/brewing-green-tea',
  );
  expect(research.sources.every((s) => pages.some((p) => p.url === s.url))).toBe(true);
  expect(research.outline.length).toBeGreaterThanOrEqual(5);
  expect(research.outline.map((s) => s.heading)).toContain('How Fernleaf Tea approaches green tea');
  expect(research.outline.flatMap((s) => s.points)).toContain(
    'Green tea tastes bitter when the water is too hot.',
  );
  expect(research.keyPoints.length).toBeGreaterThan(0);
});

test('without a model the draft is a brief that says so: keyword, outline, excerpts with their URLs, company facts, pages to link to', async () => {
  const research = await writer.researchArticle({ topic, brand, pages });
  const draft = await writer.writeArticle({ topic, brand, research, pages });
  expect(draft).toMatchObject({ provider: 'offline', kind: 'brief', title: topic.title });
  expect(draft.body.split('\n')[0]).toMatch(
    /^This is a brief for an article, not the article: no language model is configured/,
  );
  expect(draft.description).toMatch(/^Brief for an article on green tea/);
  expect(draft.body.match(/^## .+$/gm)).toEqual([
    '## Keyword',
    '## Suggested outline',
    '## What the site says',
    '## Company facts',
    '## Pages to link to',
  ]);
  expect(draft.body).toContain('## Keyword\n\ngreen tea\n');
  for (const section of research.outline) expect(draft.body).toContain(`. ${section.heading}\n`);
  expect(draft.body).toContain(
    '- “Green tea tastes bitter when the water is too hot.” ([How to brew green tea](https://fernleaf.example/guides/brewing-green-tea))',
  );
  expect(draft.body).toContain(
    '- location: Bristol, England ([https://fernleaf.example/about](https://fernleaf.example/about))',
  );
  expect(draft.internalLinks.length).toBeGreaterThanOrEqual(2);
  for (const link of draft.internalLinks)
    expect(draft.body).toContain(`- [${link.anchor}](${link.url})`);
  expect(draft.body).not.toMatch(
    /Few things shape|Ask ten people|deserves a closer look|In practice,/,
  );
  expect(draft.tags[0]).toBe('green tea');
});

test('the same inputs give the same output, byte for byte', async () => {
  const write = async () => {
    const research = await writer.researchArticle({ topic, brand, pages });
    return writer.writeArticle({ topic, brand, research, pages });
  };
  expect(await write()).toEqual(await write());
  const suggest = () => writer.suggestTopics({ brand, pages, existingTopics: [], count: 8 });
  expect(await suggest()).toEqual(await suggest());
});

test('crawled text that would break MDX is escaped, and the article survives an MDX round trip', async () => {
  const trapped = pages.map((p, i) =>
    i === 1
      ? {
          ...p,
          text: `Green tea <script> and {curly} braces stay text, in every green tea guide. ${p.text}`,
        }
      : p,
  );
  const research = await writer.researchArticle({ topic, brand, pages: trapped });
  const draft = await writer.writeArticle({ topic, brand, research, pages: trapped });
  expect(codeOfText(draft.body)).toEqual([]); // MDX finds no JSX or expression in it
  expect(draft.body).toContain('\\<script> and \\{curly} braces stay text');
  const mdx = buildMdx(
    {
      title: draft.title,
      description: draft.description,
      slug: slugify(draft.title),
      date: '2026-01-01',
      keyword: topic.keyword,
      tags: draft.tags,
      author: brand.name,
      generator: { provider: draft.provider, model: draft.model },
    },
    draft.body,
  );
  expect(parseMdx(mdx).body).toBe(draft.body);
});
