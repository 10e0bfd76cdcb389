import { afterAll, beforeAll, expect, test } from 'vitest';
import { PROMPT_BUDGET } from '../../../src/integrations/llm/promptBudget.ts';
import { articleIn, startWorld, type World } from '../publishing/world.ts';
import { reply, startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';

/** A published article of ~190,000 characters: the model wrote it long, and it was merged as written. */
const paragraph = (n: number) =>
  `Paragraph ${n} on feeding a sourdough starter: equal weights of flour and water, kept warm, fed at the same hour each day.`;
const hugeBody = `OPENING-PARAGRAPH keep the starter warm.\n\n${Array.from({ length: 1_500 }, (_, i) => paragraph(i + 1)).join('\n\n')}\n\nCLOSING-PARAGRAPH the last words of a very long file.\n`;

let openai: FakeOpenAi;
let w: World;
beforeAll(async () => {
  openai = await startFakeOpenAi({
    respond: (request) =>
      reply.object(
        {
          brand_voice: {
            summary: 'Warm and practical.',
            voiceTraits: ['warm', 'practical', 'direct'],
            do: ['Use numbers', 'Talk to bakers', 'Keep it short'],
            dont: ['No jargon', 'No hype', 'No exclamation marks'],
          },
          article_research: {
            outline: [
              { heading: 'What a starter is', points: ['Flour and water'] },
              { heading: 'Feeding it', points: ['Ratios'] },
              { heading: 'When it is ready', points: ['The float test'] },
            ],
            keyPoints: ['Feed daily'],
            sources: [],
          },
          article_draft: {
            title: 'Sourdough Starter Basics',
            description: 'How to start, feed and keep a sourdough starter.',
            body: hugeBody,
            tags: ['sourdough'],
            internalLinks: [],
          },
        }[request.body.response_format?.json_schema?.name as string] ?? {},
      ),
  });
  w = await startWorld({
    env: {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.baseURL,
      INKSTREAM_DEFAULT_MODEL: 'gpt-fake',
    },
  });
}, 60_000);
afterAll(async () => {
  await w?.close();
  await openai?.close();
});

test('a refresh of a huge published file sends its opening, cut at a paragraph with a marker, to the draft call only; research gets its sections', async () => {
  const projectId = await w.project();
  expect((await w.connect(projectId, { publishMode: 'direct' })).status).toBe(200);
  const articleId = await w.draft(projectId, 'Sourdough starter basics');
  await w.api.post(`/articles/${articleId}/approve`);
  const merged = await articleIn(w.api, articleId, ['merged']);
  expect(merged.content.length).toBeGreaterThan(180_000);

  const before = openai.requests.length;
  expect((await w.api.post(`/articles/${articleId}/refresh`)).status).toBe(202);
  await articleIn(w.api, articleId, ['pr_open', 'draft', 'failed'], 20_000);
  const prompts = openai.requests.slice(before).map((request) => ({
    name: request.body.response_format?.json_schema?.name,
    user: request.body.messages[1].content as string,
  }));
  expect(prompts.map((prompt) => prompt.name)).toEqual(['article_research', 'article_draft']);
  const [research, draft] = prompts;
  expect(research.user).toContain(
    "The published version's sections: (it has no section headings).",
  );
  expect(research.user).not.toContain('OPENING-PARAGRAPH');
  expect(research.user.length).toBeLessThan(PROMPT_BUDGET.pages + 6_000);

  expect(draft.user).toContain('OPENING-PARAGRAPH keep the starter warm.');
  expect(draft.user).not.toContain('CLOSING-PARAGRAPH');
  expect(draft.user).not.toMatch(/generator:|^slug:/m); // the body, not the file's frontmatter
  const published =
    draft.user.match(
      /OPENING-PARAGRAPH[^]*?\n\[… [\d,]+ more characters cut to fit the prompt\]/,
    )?.[0] ?? '';
  expect(published).toMatch(
    /Paragraph \d+ on feeding a sourdough starter: [^\n]+ each day\.\n\[… [\d,]+ more/,
  );
  expect(published.length).toBeLessThanOrEqual(PROMPT_BUDGET.publishedArticle);
  expect(draft.user.length).toBeLessThan(
    PROMPT_BUDGET.publishedArticle + PROMPT_BUDGET.pages + 6_000,
  );
});
