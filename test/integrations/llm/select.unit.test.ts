import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/core/config.ts';
import {
  createContentWriter,
  DEFAULT_MODEL,
  llmConfigOf,
} from '../../../src/integrations/llm/select.ts';

test('without OPENAI_API_KEY the offline writer is used', () => {
  const config = llmConfigOf(loadConfig({ OPENAI_API_KEY: '  ' }));
  expect(config).toMatchObject({ apiKey: undefined, defaultModel: DEFAULT_MODEL });
  const { writer, llm } = createContentWriter(config);
  expect(writer.provider).toBe('offline');
  expect(llm).toBeUndefined();
});

test('with a key, the model-backed writer on the configured server and model', () => {
  const config = llmConfigOf(
    loadConfig({
      OPENAI_API_KEY: 'sk-x',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      INKSTREAM_DEFAULT_MODEL: 'llama3.1',
      INKSTREAM_LLM_MAX_RETRIES: '2',
    }),
  );
  expect(config).toEqual({
    apiKey: 'sk-x',
    baseURL: 'http://127.0.0.1:11434/v1',
    defaultModel: 'llama3.1',
    maxRetries: 2,
    timeoutMs: undefined,
    concurrency: undefined,
    requestsPerMinute: undefined,
  });
  const { writer, llm } = createContentWriter(config);
  expect(writer.provider).toBe('openai');
  expect(llm?.defaultModel).toBe('llama3.1');
});

test('a malformed number in the environment is refused by name', () => {
  expect(() => loadConfig({ INKSTREAM_LLM_CONCURRENCY: 'four' })).toThrow(
    /INKSTREAM_LLM_CONCURRENCY/,
  );
});
