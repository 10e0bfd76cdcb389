import { afterEach, beforeEach, expect, test } from 'vitest';
import { createOpenAiLlm } from '../../../src/integrations/llm/openai.ts';
import { createLlmWriter } from '../../../src/integrations/llm/openaiWriter.ts';
import { fernleafBrand as brand, fernleafPages as pages } from '../../support/brandFixture.ts';
import { reply, startFakeOpenAi } from '../../support/fakeOpenAi.ts';
import type { FakeOpenAi } from '../../support/fakeOpenAi.ts';

let fake: FakeOpenAi;
beforeEach(async () => {
  fake = await startFakeOpenAi();
});
afterEach(async () => {
  await fake.close();
});

const writer = () =>
  createLlmWriter(
    createOpenAiLlm({
      apiKey: 'sk-test',
      baseURL: fake.baseURL,
      defaultModel: 'gpt-test',
      sleep: async () => {},
    }),
  );
const topic = {
  title: 'How to Brew Green Tea Without Bitterness',
  keyword: 'green tea',
  brief: 'Temperature, time and leaf.',
};
const idea = (title: string, keyword: string) => ({
  title,
  keyword,
  brief: `All about ${keyword}, step by step.`,
  rationale: 'The guides cover it.',
});

test('topic suggestions carry the brand and existing topics into the prompt and come back deduplicated', async () => {
  fake.enqueue(
    reply.object({
      topics: [
        idea('Cold brew green tea', 'cold brew'),
        idea('Water temperature explained', 'water temperature'),
        idea('Cold-brewing green teas', 'cold brew tea'),
        idea('Storing loose-leaf tea', 'tea storage'),
        idea('Gyokuro, the shaded tea', 'gyokuro'),
        idea('Re-steeping your leaves', 're-steeping'),
        idea('Choosing a tea kettle', 'tea kettle'),
        idea('Oolong for green tea lovers', 'oolong'),
      ],
    }),
  );
  const result = await writer().suggestTopics({
    brand,
    pages,
    existingTopics: [
      { title: 'Water temperature', keyword: 'water temperature', status: 'rejected' },
    ],
    count: 5,
    model: 'gpt-project',
  });
  expect(result.topics.map((t) => t.keyword)).toEqual([
    'cold brew',
    'tea storage',
    'gyokuro',
    're-steeping',
    'tea kettle',
  ]);
  expect(result).toMatchObject({ provider: 'openai', model: 'gpt-project' });
  const sent = fake.requests[0].body;
  expect(sent.model).toBe('gpt-project');
  expect(sent.response_format.json_schema.name).toBe('topic_suggestions');
  expect(sent.messages[0].content).toContain('Never use "leverage"');
  expect(sent.messages[1].content).toContain(
    '- Water temperature (keyword: water temperature) [rejected]',
  );
  expect(sent.messages[1].content).toContain(
    'url="https://fernleaf.example/guides/brewing-green-tea"',
  );
});

test('too few usable suggestions trigger one more request that excludes everything seen', async () => {
  fake.enqueue(
    reply.object({
      topics: [idea('Cold brew green tea', 'cold brew'), idea('Cold brew, explained', 'cold brew')],
    }),
    reply.object({
      topics: [
        idea('Tea storage', 'tea storage'),
        idea('Gyokuro', 'gyokuro'),
        idea('Oolong', 'oolong'),
        idea('Matcha', 'matcha'),
      ],
    }),
  );
  const result = await writer().suggestTopics({ brand, pages, existingTopics: [], count: 5 });
  expect(result.topics.map((t) => t.keyword)).toEqual([
    'cold brew',
    'tea storage',
    'gyokuro',
    'oolong',
    'matcha',
  ]);
  expect(result.usage.totalTokens).toBe(
    fake.requests[0].usage!.total_tokens + fake.requests[1].usage!.total_tokens,
  );
  expect(fake.requests[1].body.messages[1].content).toContain(
    '- Cold brew, explained (keyword: cold brew) [already suggested]',
  );
});

test('research keeps only sources that are crawled pages', async () => {
  fake.enqueue(
    reply.object({
      outline: [
        { heading: 'Temperature', points: ['70-80 degrees'] },
        { heading: 'Time', points: ['two minutes'] },
        { heading: 'Leaf', points: ['3 g'] },
      ],
      keyPoints: ['Cooler water, sweeter tea'],
      sources: [
        { url: 'https://fernleaf.example/guides/water-temperature', title: 'Water temperature' },
        { url: 'https://invented.example/', title: 'Made up' },
      ],
    }),
  );
  const research = await writer().researchArticle({ topic, brand, pages });
  expect(research.sources).toEqual([
    { url: 'https://fernleaf.example/guides/water-temperature', title: 'Water temperature' },
  ]);
  expect(fake.requests[0].body.messages[1].content).toMatch(/at least 800 words/);
});

test('a draft loses a stray H1, banned words and links to pages that do not exist', async () => {
  const body = `# How to Brew Green Tea\n\nA revolutionary approach to green tea. Green tea needs cooler water.\n\nSee [the guide](https://fernleaf.example/guides/brewing-green-tea) and [elsewhere](https://invented.example/x).\n`;
  fake.enqueue(
    reply.object({
      title: 'How to Brew Green Tea',
      description: 'Cooler water, shorter steeps, better green tea.',
      body: body.padEnd(260, ' '),
      tags: ['Green Tea', 'brewing', 'green tea'],
      internalLinks: [
        { url: 'https://fernleaf.example/guides/brewing-green-tea', anchor: 'the guide' },
        { url: 'https://invented.example/x', anchor: 'elsewhere' },
      ],
    }),
  );
  const research = {
    outline: [{ heading: 'Temperature', points: ['70-80 degrees'] }],
    keyPoints: ['Cooler water'],
    sources: [],
  };
  const draft = await writer().writeArticle({ topic, brand, research, pages });
  expect(draft.body.startsWith('A new approach to green tea. Green tea needs cooler water.')).toBe(
    true,
  );
  expect(draft.internalLinks).toEqual([
    { url: 'https://fernleaf.example/guides/brewing-green-tea', anchor: 'the guide' },
  ]);
  expect(draft.tags).toEqual(['green tea', 'brewing']);
  expect(fake.requests[0].body.messages[0].content).toMatch(/No JSX components/);
});

test("a revision returns the model's body and summary", async () => {
  fake.enqueue(
    reply.object({
      body: 'Green tea, shorter.\n\n## Water\n\nCooler water keeps it sweet.\n'.padEnd(80, ' '),
      summary: 'Shortened the introduction.',
    }),
  );
  const result = await writer().reviseArticle({
    body: 'Long body',
    instruction: 'Shorten the intro',
    brand,
    topic,
    outline: [],
    pages,
  });
  expect(result.summary).toBe('Shortened the introduction.');
  expect(fake.requests[0].body.messages[1].content).toContain('Instruction: Shorten the intro');
});
