import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { createLimiter } from '../../../src/core/limiter.ts';
import { createOpenAiLlm } from '../../../src/integrations/llm/openai.ts';
import { LlmError } from '../../../src/integrations/llm/port.ts';
import { limitProviderCalls } from '../../../src/integrations/llm/providerLimit.ts';
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

let fake: FakeOpenAi;
let script: ScriptedResponse[];
beforeEach(async () => {
  script = [];
  fake = await startFakeOpenAi({ respond: () => script.shift() ?? reply.object(good) });
});
afterEach(async () => {
  await fake.close();
});

function limited(options: { maxRateLimitWaitMs?: number } = {}) {
  const limiter = createLimiter({ concurrency: 4 });
  const adapter = createOpenAiLlm({
    apiKey: 'sk-test',
    baseURL: fake.baseURL,
    defaultModel: 'gpt-test',
    maxRetries: 0,
    maxRetryAfterMs: 0,
  });
  const llm = limitProviderCalls(adapter, {
    limiter,
    key: fake.baseURL,
    maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? 60_000,
    backoff: { baseDelayMs: 10, maxDelayMs: 10, random: () => 0 },
    nowMs: Date.now,
  });
  return { llm, limiter };
}

test('a provider asking for a wait past the budget fails that call at once and does not stall the endpoint for everyone', async () => {
  script = [reply.rateLimited({ retryAfter: String(365 * 24 * 3600) })];
  const { llm, limiter } = limited({ maxRateLimitWaitMs: 60_000 });
  await expect(llm.generateObject(request)).rejects.toMatchObject({ kind: 'rate_limited' });
  await expect(llm.generateObject(request)).resolves.toMatchObject({ value: good });
  expect(limiter.waiting(fake.baseURL)).toBe(0);
});

test('a provider that always says "retry now" is backed off, not spun against, and the call fails once the budget is spent', async () => {
  script = Array.from({ length: 50 }, () => reply.rateLimited({ retryAfter: '0' }));
  const { llm } = limited({ maxRateLimitWaitMs: 100 });
  await expect(llm.generateObject(request)).rejects.toMatchObject({ kind: 'rate_limited' });
  expect(fake.requests).toHaveLength(21); // the first try and twenty backoffs of 5 ms (half the 10 ms step; no jitter here)
});

test('unreadable rate-limit headers are ignored: the call backs off and goes through', async () => {
  script = [
    {
      kind: 'error',
      status: 429,
      message: 'slow down',
      code: 'rate_limit_exceeded',
      headers: {
        'retry-after': 'soon',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '-5s; DROP',
      },
    },
  ];
  const { llm } = limited();
  await expect(llm.generateObject(request)).resolves.toMatchObject({ value: good });
  expect(fake.requests).toHaveLength(2);
});

test('a provider that never stops answering 429 fails the call with its reason once the wait budget is spent, without hammering it', async () => {
  script = Array.from({ length: 50 }, () => reply.rateLimited({ retryAfterMs: '20' }));
  const { llm } = limited({ maxRateLimitWaitMs: 100 });
  const failure = await llm.generateObject(request).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(LlmError);
  expect(failure).toMatchObject({ kind: 'rate_limited', retryAfterMs: 20 });
  expect(fake.requests).toHaveLength(6); // the first try and five waits of 20 ms within 100 ms
});

test('a 429 pauses every call to the endpoint for the Retry-After, then each goes through once', async () => {
  script = [reply.rateLimited({ retryAfterMs: '150' })];
  const { llm, limiter } = limited();
  const first = llm.generateObject(request);
  await eventually(
    async () => limiter.waiting(fake.baseURL),
    (waiting) => waiting === 1,
    { what: 'the first call to wait out its 429' },
  );
  const second = llm.generateObject(request);
  expect(limiter.waiting(fake.baseURL)).toBe(2); // held by the pause, not sent
  expect(fake.requests).toHaveLength(1);
  await expect(Promise.all([first, second])).resolves.toHaveLength(2);
  expect(fake.requests).toHaveLength(3);
});

test('a 429 without Retry-After waits for the exhausted rate-limit budget to reset', async () => {
  script = [
    {
      kind: 'error',
      status: 429,
      message: 'Rate limit reached for tokens',
      code: 'rate_limit_exceeded',
      headers: {
        'x-ratelimit-remaining-requests': '12',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '250ms',
      },
    },
  ];
  const adapter = createOpenAiLlm({
    apiKey: 'sk-test',
    baseURL: fake.baseURL,
    defaultModel: 'gpt-test',
    maxRetries: 0,
  });
  await expect(adapter.generateObject(request)).rejects.toMatchObject({
    kind: 'rate_limited',
    retryAfterMs: 250,
  });
});

test('other failures are not waited out: a rejected key fails at once', async () => {
  script = [
    { kind: 'error', status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' },
  ];
  const { llm } = limited();
  await expect(llm.generateObject(request)).rejects.toMatchObject({ kind: 'auth' });
  expect(fake.requests).toHaveLength(1);
});
