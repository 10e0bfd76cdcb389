import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { createLimiter } from '../../../src/core/limiter.ts';
import { createOpenAiLlm } from '../../../src/integrations/llm/openai.ts';
import {
  estimatedTokens,
  limitProviderCalls,
} from '../../../src/integrations/llm/providerLimit.ts';
import { createTokenHeadroom } from '../../../src/integrations/llm/rateLimitHeaders.ts';
import { eventually } from '../../support/eventually.ts';
import {
  reply,
  startFakeOpenAi,
  type FakeOpenAi,
  type ScriptedResponse,
} from '../../support/fakeOpenAi.ts';

const Topics = z.object({
  topics: z.array(z.object({ title: z.string(), keyword: z.string() })).min(1),
});
const request = {
  schema: Topics,
  schemaName: 'topics',
  system: 'You suggest topics.',
  prompt: 'Three topics about tea.',
  maxOutputTokens: 500,
};
const good = { topics: [{ title: 'Brewing green tea', keyword: 'green tea' }] };
const tokensOfACall = estimatedTokens(request);

let fake: FakeOpenAi;
let script: ScriptedResponse[];
beforeEach(async () => {
  script = [];
  fake = await startFakeOpenAi({ respond: () => script.shift() ?? reply.object(good) });
});
afterEach(async () => {
  await fake.close();
});

/** The service's composition (select.ts), with a short token window so a test sees it roll over. */
function limited(tokens?: { limit: number; windowMs: number }) {
  const limiter = createLimiter({ concurrency: 4 });
  const headroom = createTokenHeadroom(Date.now);
  const adapter = createOpenAiLlm({
    apiKey: 'sk-test',
    baseURL: fake.baseURL,
    defaultModel: 'gpt-test',
    maxRetries: 0,
    maxRetryAfterMs: 0,
    onResponseHeaders: headroom.observe,
  });
  const tokenWindow = createLimiter({ concurrency: Number.MAX_SAFE_INTEGER, rate: tokens });
  const llm = limitProviderCalls(adapter, {
    limiter,
    key: fake.baseURL,
    maxRateLimitWaitMs: 60_000,
    backoff: { baseDelayMs: 10, maxDelayMs: 10, random: () => 0 },
    nowMs: Date.now,
    headroom,
    tokens: tokens && tokenWindow,
  });
  return { llm, limiter, tokenWindow };
}

test('rate-limit headers a provider sends that cannot be read are ignored: the next call goes at once', async () => {
  script = [
    reply.object(good, {
      headers: { 'x-ratelimit-remaining-tokens': 'none; DROP', 'x-ratelimit-reset-tokens': '-5s' },
    }),
  ];
  const { llm, limiter } = limited();
  await llm.generateObject(request);
  const second = llm.generateObject(request);
  await eventually(
    async () => fake.requests.length,
    (n) => n === 2,
    { what: 'the second call sent' },
  );
  await expect(second).resolves.toMatchObject({ value: good });
  expect(limiter.waiting(fake.baseURL)).toBe(0);
});

test('a provider saying its tokens are spent until a reset holds the next call until then, instead of drawing a 429', async () => {
  script = [
    reply.object(good, {
      headers: { 'x-ratelimit-remaining-tokens': '10', 'x-ratelimit-reset-tokens': '400ms' },
    }),
  ];
  const { llm, limiter } = limited();
  await llm.generateObject(request);
  const answeredAt = Date.now();
  const second = llm.generateObject(request);
  await eventually(
    async () => limiter.waiting(fake.baseURL),
    (n) => n === 1,
    { what: 'the second call held' },
  );
  expect(fake.requests).toHaveLength(1);
  await expect(second).resolves.toMatchObject({ value: good });
  expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(350);
  expect(fake.requests).toHaveLength(2);
  expect(fake.rateLimited).toBe(0);
});

test('with tokens per minute set, a call whose prompt and output cap do not fit in the window waits for the next one', async () => {
  const { llm, tokenWindow } = limited({ limit: Math.ceil(tokensOfACall * 1.5), windowMs: 400 });
  await llm.generateObject(request);
  const second = llm.generateObject(request);
  await eventually(
    async () => tokenWindow.waiting(fake.baseURL),
    (n) => n === 1,
    { what: 'the second call waiting for the window' },
  );
  expect(fake.requests).toHaveLength(1); // the window holds one call's tokens, not two
  await expect(second).resolves.toMatchObject({ value: good });
  expect(fake.requests).toHaveLength(2);
});
