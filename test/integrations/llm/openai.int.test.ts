import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { createOpenAiLlm } from '../../../src/integrations/llm/openai.ts';
import type { OpenAiLlmOptions } from '../../../src/integrations/llm/openai.ts';
import { LlmError } from '../../../src/integrations/llm/port.ts';
import { reply, startFakeOpenAi } from '../../support/fakeOpenAi.ts';
import type { FakeOpenAi } from '../../support/fakeOpenAi.ts';

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
let slept: number[];
beforeEach(async () => {
  fake = await startFakeOpenAi();
  slept = [];
});
afterEach(async () => {
  await fake.close();
});

const llm = (options: Partial<OpenAiLlmOptions> = {}) =>
  createOpenAiLlm({
    apiKey: 'sk-test',
    baseURL: fake.baseURL,
    defaultModel: 'gpt-test',
    sleep: async (ms) => {
      slept.push(ms);
    },
    random: () => 0.5,
    nowMs: () => Date.parse('2026-01-01T00:00:00Z'),
    ...options,
  });

test('a structured answer comes back validated, with usage, model and the json_schema request', async () => {
  fake.enqueue(
    reply.object(good, {
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
      model: 'gpt-test-2026',
    }),
  );
  const result = await llm().generateObject({ ...request, temperature: 0.3 });
  expect(result).toEqual({
    value: good,
    usage: { promptTokens: 120, completionTokens: 30, totalTokens: 150 },
    model: 'gpt-test-2026',
    provider: 'openai',
  });
  const sent = fake.requests[0];
  expect(sent.headers.authorization).toBe('Bearer sk-test');
  expect(sent.body.model).toBe('gpt-test');
  expect(sent.body.temperature).toBe(0.3);
  expect(sent.body.messages).toEqual([
    { role: 'system', content: 'You suggest topics.' },
    { role: 'user', content: 'Three topics about tea.' },
  ]);
  expect(sent.body.response_format).toMatchObject({
    type: 'json_schema',
    json_schema: { name: 'topics', strict: true },
  });
  expect(sent.body.response_format.json_schema.schema).toMatchObject({
    type: 'object',
    required: ['topics'],
    additionalProperties: false,
  });
});

test('the model can be overridden per call', async () => {
  fake.enqueue(reply.object(good));
  await llm().generateObject({ ...request, model: 'llama3.1:8b' });
  expect(fake.requests[0].body.model).toBe('llama3.1:8b');
});

test('a 429 is retried after the retry-after the server asked for', async () => {
  fake.enqueue(reply.rateLimited({ retryAfter: '7' }), reply.object(good));
  const result = await llm().generateObject(request);
  expect(result.value).toEqual(good);
  expect(slept).toEqual([7000]);
  expect(fake.requests).toHaveLength(2);
});

test('retry-after-ms wins over retry-after; without either, backoff grows exponentially with jitter', async () => {
  fake.enqueue(
    reply.rateLimited({ retryAfter: '7', retryAfterMs: '250' }),
    reply.serverError(),
    reply.serverError(503),
    reply.object(good),
  );
  await llm({ baseDelayMs: 100 }).generateObject(request);
  // the 2nd and 3rd retries: steps 200 and 400, random() = 0.5 → half fixed plus a quarter
  expect(slept).toEqual([250, 150, 300]);
});

test('a server asking to wait longer than the cap gets a retryable error instead of a blocked worker', async () => {
  fake.enqueue(reply.rateLimited({ retryAfter: '3600' }));
  const error = await llm()
    .generateObject(request)
    .catch((e) => e);
  expect(error).toBeInstanceOf(LlmError);
  expect(error).toMatchObject({ kind: 'rate_limited', retryable: true, status: 429 });
  expect(slept).toEqual([]);
});

test('retries stop after maxRetries with the last error', async () => {
  fake.enqueue(reply.serverError(), reply.serverError(), reply.serverError());
  const error = await llm({ maxRetries: 2 })
    .generateObject(request)
    .catch((e) => e);
  expect(error).toMatchObject({ kind: 'server', retryable: true, status: 500 });
  expect(fake.requests).toHaveLength(3);
});

test('a server that does not answer in time gives a timeout error after the retries', async () => {
  fake.enqueue(reply.hang(), reply.hang());
  const error = await llm({ timeoutMs: 150, maxRetries: 1 })
    .generateObject(request)
    .catch((e) => e);
  expect(error).toMatchObject({ kind: 'timeout', retryable: true });
  expect(error.reason).toMatch(/did not answer/);
  expect(fake.requests).toHaveLength(2);
});

test('a refused key is not retried and says what to fix', async () => {
  fake.enqueue({
    kind: 'error',
    status: 401,
    message: 'Incorrect API key provided',
    code: 'invalid_api_key',
  });
  const error = await llm()
    .generateObject(request)
    .catch((e) => e);
  expect(error).toMatchObject({ kind: 'auth', retryable: false });
  expect(error.reason).toMatch(/OPENAI_API_KEY/);
  expect(fake.requests).toHaveLength(1);
});

test('malformed JSON gets one repair request, which can succeed', async () => {
  fake.enqueue(reply.malformedJson(), reply.text('```json\n' + JSON.stringify(good) + '\n```'));
  const result = await llm().generateObject(request);
  expect(result.value).toEqual(good);
  expect(result.usage.totalTokens).toBe(
    fake.requests[0].usage!.total_tokens + fake.requests[1].usage!.total_tokens,
  ); // both calls counted
  const repair = fake.requests[1].body.messages;
  expect(repair).toHaveLength(4);
  expect(repair[2]).toEqual({ role: 'assistant', content: '{"topics": [ {"title": "unterminated' });
  expect(repair[3].content).toMatch(/not valid JSON/);
});

test('an answer that still does not fit the schema after the repair is a clear error', async () => {
  fake.enqueue(reply.object({ topics: [] }), reply.malformedJson('sorry, no'));
  const error = await llm()
    .generateObject(request)
    .catch((e) => e);
  expect(error).toMatchObject({ kind: 'invalid_output', retryable: false });
  expect(error.reason).toMatch(/"topics" format/);
  expect(fake.requests[1].body.messages[3].content).toMatch(/topics: Too small/);
  expect(fake.requests).toHaveLength(2);
});

test('a server rejecting json_schema falls back to json_object, and the choice is remembered', async () => {
  fake.enqueue(reply.jsonSchemaUnsupported(), reply.object(good), reply.object(good));
  const port = llm();
  expect((await port.generateObject(request)).value).toEqual(good);
  expect(fake.requests[1].body.response_format).toEqual({ type: 'json_object' });
  expect(fake.requests[1].body.messages[0].content).toMatch(/JSON Schema:\n\{"type":"object"/);
  await port.generateObject(request);
  expect(fake.requests[2].body.response_format).toEqual({ type: 'json_object' });
});

test('a server rejecting both formats gets the schema in the prompt and no response_format', async () => {
  fake.enqueue(
    reply.jsonSchemaUnsupported(),
    reply.jsonSchemaUnsupported(),
    reply.text(`Here you go:\n${JSON.stringify(good)}`),
  );
  expect((await llm().generateObject(request)).value).toEqual(good);
  expect(fake.requests[2].body.response_format).toBeUndefined();
});

test('a model refusal is reported, not repaired', async () => {
  fake.enqueue(reply.refusal('I cannot help with that.'));
  const error = await llm()
    .generateObject(request)
    .catch((e) => e);
  expect(error).toMatchObject({ kind: 'refused', retryable: false });
  expect(fake.requests).toHaveLength(1);
});

test('no more than `concurrency` requests are in flight at once', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  for (let i = 0; i < 5; i++) fake.enqueue(reply.held(gate, reply.object(good)));
  const port = llm({ concurrency: 2 });
  const calls = Array.from({ length: 5 }, () => port.generateObject(request));
  await until(() => fake.requests.length === 2);
  release();
  await Promise.all(calls);
  expect(fake.maxConcurrent).toBe(2);
  expect(fake.requests).toHaveLength(5);
});

test('generateText returns the plain answer', async () => {
  fake.enqueue(reply.text('A calm, precise voice.'));
  const result = await llm().generateText({
    system: 'Describe the voice.',
    prompt: 'Pages…',
    maxOutputTokens: 300,
  });
  expect(result).toMatchObject({
    text: 'A calm, precise voice.',
    model: 'gpt-test',
    provider: 'openai',
    usage: { totalTokens: fake.requests[0].usage!.total_tokens },
  });
  expect(fake.requests[0].body.response_format).toBeUndefined();
  expect(fake.requests[0].body.max_tokens).toBe(300);
});

test("every request carries the call's token cap, the repair request included", async () => {
  fake.enqueue(reply.malformedJson(), reply.object(good));
  await llm().generateObject(request);
  expect(fake.requests.map((sent) => sent.body.max_tokens)).toEqual([500, 500]);
});

test('a server that rejects max_tokens (a reasoning model) is asked again with max_completion_tokens, and the field is remembered', async () => {
  fake.enqueue(
    {
      kind: 'error',
      status: 400,
      type: 'invalid_request_error',
      code: 'unsupported_parameter',
      message:
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    },
    reply.object(good),
    reply.object(good),
  );
  const port = llm();
  expect((await port.generateObject(request)).value).toEqual(good);
  await port.generateObject(request);
  expect(
    fake.requests.map((sent) => [sent.body.max_tokens, sent.body.max_completion_tokens]),
  ).toEqual([
    [500, undefined],
    [undefined, 500],
    [undefined, 500],
  ]);
  expect(fake.requests[1].body.response_format.type).toBe('json_schema'); // the format was not what failed
  expect(slept).toEqual([]);
});

test('a server that rejects both token-limit fields fails the call instead of running uncapped', async () => {
  const unsupported = (field: string) => ({
    kind: 'error' as const,
    status: 400,
    message: `Unrecognized request argument supplied: ${field}`,
  });
  fake.enqueue(
    unsupported('max_tokens'),
    unsupported('max_completion_tokens'),
    unsupported('max_tokens'),
    unsupported('max_tokens'),
  );
  const error = await llm()
    .generateObject(request)
    .catch((e) => e);
  expect(error).toBeInstanceOf(LlmError);
  expect(
    fake.requests.every(
      (sent) => (sent.body.max_tokens ?? sent.body.max_completion_tokens) === 500,
    ),
  ).toBe(true);
});

/** Waits on an observable condition, turn by turn of the event loop; never on wall time. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !condition(); turn++)
    await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}
