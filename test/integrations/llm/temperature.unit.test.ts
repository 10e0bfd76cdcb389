import { expect, test } from 'vitest';
import {
  isTemperatureRejection,
  refusesTemperature,
} from '../../../src/integrations/llm/temperature.ts';

test.each([
  ['o1', true],
  ['o1-mini', true],
  ['o3', true],
  ['o3-mini-2025-01-31', true],
  ['o4-mini', true],
  ['gpt-5', true],
  ['gpt-5-mini', true],
  ['gpt-5.1', true],
  ['openai/o3', true],
  ['GPT-5-nano', true],
  ['gpt-4o-mini', false],
  ['gpt-4.1', false],
  ['o10-local', false],
  ['llama3.1:8b', false],
  ['gpt-50', false],
  ['photo3', false],
])('%s refuses a temperature: %s', (model, refuses) => {
  expect(refusesTemperature(model)).toBe(refuses);
});

test('only a 400 naming the temperature as unsupported counts as refusing it', () => {
  expect(
    isTemperatureRejection(
      400,
      "Unsupported value: 'temperature' does not support 0.7 with this model. Only the default (1) value is supported.",
    ),
  ).toBe(true);
  expect(
    isTemperatureRejection(
      400,
      "Unsupported parameter: 'temperature' is not supported with this model.",
    ),
  ).toBe(true);
  expect(
    isTemperatureRejection(
      400,
      "Invalid value for 'response_format.type': 'json_schema' is not supported by this server.",
    ),
  ).toBe(false);
  expect(isTemperatureRejection(400, 'temperature must be between 0 and 2')).toBe(false);
  expect(isTemperatureRejection(500, "Unsupported parameter: 'temperature'")).toBe(false);
});
