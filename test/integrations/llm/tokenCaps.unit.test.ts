import { expect, test } from 'vitest';
import {
  isTokenLimitRejection,
  tokenLimitParamFor,
} from '../../../src/integrations/llm/tokenCaps.ts';

test('OpenAI and Azure OpenAI get max_completion_tokens; other compatible servers (Ollama, LM Studio, vLLM) get max_tokens', () => {
  expect(tokenLimitParamFor('https://api.openai.com/v1')).toBe('max_completion_tokens');
  expect(tokenLimitParamFor('https://acme.openai.azure.com/openai/v1')).toBe(
    'max_completion_tokens',
  );
  expect(tokenLimitParamFor('http://127.0.0.1:11434/v1')).toBe('max_tokens');
  expect(tokenLimitParamFor('https://api.openai.com.evil.example/v1')).toBe('max_tokens');
});

test('only a 400 that calls the field we sent unsupported switches it', () => {
  const reasoning =
    "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.";
  expect(isTokenLimitRejection(400, reasoning, 'max_tokens')).toBe(true);
  expect(isTokenLimitRejection(400, reasoning, 'max_completion_tokens')).toBe(false);
  expect(
    isTokenLimitRejection(
      400,
      'Extra inputs are not permitted: max_completion_tokens',
      'max_completion_tokens',
    ),
  ).toBe(true);
  expect(isTokenLimitRejection(400, 'max_tokens must be at least 1, got 0', 'max_tokens')).toBe(
    false,
  );
  expect(isTokenLimitRejection(500, reasoning, 'max_tokens')).toBe(false);
});
