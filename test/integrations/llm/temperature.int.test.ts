import { afterEach, beforeEach, expect, test } from 'vitest';
import { z } from 'zod';
import { createOpenAiLlm } from '../../../src/integrations/llm/openai.ts';
import { LlmError } from '../../../src/integrations/llm/port.ts';
import {
  startFakeOpenAi,
  type FakeOpenAi,
  type ScriptedResponse,
} from '../../support/fakeOpenAi.ts';

let fake: FakeOpenAi;
beforeEach(async () => {
  fake = await startFakeOpenAi();
});
afterEach(async () => {
  await fake.close();
});

const temperatureRefused = (): ScriptedResponse => ({
  kind: 'error',
  status: 400,
  type: 'invalid_request_error',
  code: 'unsupported_parameter',
  message: "Unsupported parameter: 'temperature' is not supported with this model.",
});

test('a server that names the temperature as unsupported even without one fails the call after a bounded number of requests', async () => {
  const llm = createOpenAiLlm({
    apiKey: 'sk-test',
    baseURL: fake.baseURL,
    defaultModel: 'stubborn',
    sleep: async () => {},
  });
  fake.enqueue(...Array.from({ length: 10 }, temperatureRefused));
  const call = llm.generateObject({
    schema: z.object({ ok: z.boolean() }),
    schemaName: 'probe',
    system: 's',
    prompt: 'p',
    temperature: 0.5,
    maxOutputTokens: 100,
  });
  await expect(call).rejects.toBeInstanceOf(LlmError);
  // One request with the temperature, then one without it for each answer format it tries.
  expect(fake.requests.map((request) => 'temperature' in request.body)).toEqual([
    true,
    false,
    false,
    false,
  ]);
  expect(fake.requests.map((request) => request.body.response_format?.type ?? 'text')).toEqual([
    'json_schema',
    'json_schema',
    'json_object',
    'text',
  ]);
});
