import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { slugOfPath } from '../../../src/domain/articles/article.ts';
import { articleIn, startWorld, type World } from '../publishing/world.ts';
import { eventually } from '../../support/eventually.ts';
import { reply, startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';
import {
  connectBody,
  googleEnv,
  integrationPath,
  PROPERTY,
  settledSync,
  startGoogle,
  type Google,
} from './world.ts';

const clock = manualClock('2026-03-15T10:00:00.000Z');
let google: Google;
let openai: FakeOpenAi;
let w: World;

beforeAll(async () => {
  google = await startGoogle();
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
            sources: [{ url: 'https://crumb.example/about', title: 'About Crumb' }],
          },
          article_draft: {
            title: 'Sourdough Starter Basics',
            description: 'How to start, feed and keep a sourdough starter.',
            body: `A starter is flour, water and patience. ${'Feed it every day at the same time and keep it warm. '.repeat(8)}\n`,
            tags: ['sourdough'],
            internalLinks: [],
          },
        }[request.body.response_format?.json_schema?.name as string] ?? {},
      ),
  });
  w = await startWorld({
    clock,
    env: {
      ...googleEnv(google),
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.baseURL,
      INKSTREAM_DEFAULT_MODEL: 'gpt-fake',
    },
  });
}, 60_000);
afterAll(async () => {
  await w.close();
  await google.close();
  await openai.close();
});

test("a refresh is written knowing the article's search figures and queries, and its pull request quotes the figures before it", async () => {
  const projectId = await w.project();
  expect((await w.connect(projectId, { publishMode: 'direct' })).status).toBe(200);
  const articleId = await w.draft(projectId, 'Sourdough starter basics');
  await w.api.post(`/articles/${articleId}/approve`);
  const merged = await articleIn(w.api, articleId, ['merged']);
  const url = `https://crumb.example/blog/${slugOfPath(merged.path)}`;
  google.addRows(PROPERTY, [
    {
      date: '2026-03-01',
      page: url,
      query: 'sourdough starter',
      clicks: 30,
      impressions: 600,
      position: 3,
    },
    {
      date: '2026-03-10',
      page: url,
      query: 'how to feed a starter',
      clicks: 10,
      impressions: 400,
      position: 8,
    },
    {
      date: '2026-02-01',
      page: url,
      query: 'sourdough starter',
      clicks: 20,
      impressions: 500,
      position: 5,
    },
  ]);
  expect((await w.api.put(integrationPath(projectId), connectBody())).status).toBe(200);
  await settledSync(w.api, projectId, eventually);

  const before = openai.requests.length;
  expect((await w.api.post(`/articles/${articleId}/refresh`)).status).toBe(202);
  const refreshed = await articleIn(w.api, articleId, ['pr_open'], 20_000);

  const prompts = openai.requests.slice(before).map((request) => ({
    name: request.body.response_format?.json_schema?.name,
    text: JSON.stringify(request.body.messages),
  }));
  expect(prompts.map((prompt) => prompt.name)).toEqual(['article_research', 'article_draft']);
  for (const prompt of prompts) {
    expect(prompt.text).toContain(
      `Search performance of the published page ${url} (Google Search Console): 2026-02-13 to 2026-03-12: 40 clicks, 1,000 impressions, CTR 4.0%, average position 5.0`,
    );
    expect(prompt.text).toContain(
      '\\"sourdough starter\\" (30 clicks, 600 impressions, position 3.0); \\"how to feed a starter\\" (10 clicks, 400 impressions, position 8.0)',
    );
  }

  const pull = w.github.pullRequestJson('acme', 'site', refreshed.prNumber);
  expect(pull.title).toBe(`Refresh article: ${refreshed.title}`);
  expect(pull.body).toContain(
    `### Search performance before this refresh\nGoogle Search Console figures for \`${url}\`, synced 2026-03-15:`,
  );
  expect(pull.body).toContain(
    [
      '| | 2026-02-13 – 2026-03-12 | 2026-01-16 – 2026-02-12 |',
      '|---|---|---|',
      '| Clicks | 40 | 20 |',
      '| Impressions | 1,000 | 500 |',
      '| CTR | 4.0% | 4.0% |',
      '| Average position | 5.0 | 5.0 |',
    ].join('\n'),
  );
  expect(pull.body).toContain(
    '`sourdough starter` (30 clicks, position 3.0), `how to feed a starter` (10 clicks, position 8.0)',
  );
}, 60_000);
