import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import {
  costOf,
  DEFAULT_PRICES,
  loadPriceTable,
  priceOf,
} from '../../../src/integrations/llm/prices.ts';

test('a price table that is not JSON, or not model → { input, output } in non-negative dollars, stops the start with the reason', () => {
  expect(() => loadPriceTable({ json: '{gpt-4o: 1' })).toThrow(/INKSTREAM_LLM_PRICES is not JSON/);
  expect(() => loadPriceTable({ json: '{"gpt-4o": {"input": -1, "output": 2}}' })).toThrow(
    /INKSTREAM_LLM_PRICES must map model names.*gpt-4o\.input/,
  );
  expect(() => loadPriceTable({ json: '{"gpt-4o": {"input": 1}}' })).toThrow(/gpt-4o\.output/);
  expect(() =>
    loadPriceTable({ json: '{"gpt-4o": {"input": 1, "output": 2, "eval": "x"}}' }),
  ).toThrow(/must map model names/);
  expect(() => loadPriceTable({ json: '[1, 2]' })).toThrow(/must map model names/);
  expect(() => loadPriceTable({ file: '/nonexistent/prices.json' })).toThrow(/ENOENT/);
});

test('operator prices add models and replace defaults; the inline table wins over the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ink-prices-'));
  const file = join(dir, 'prices.json');
  writeFileSync(
    file,
    JSON.stringify({
      'llama3.1:8b': { input: 0, output: 0 },
      'gpt-4o-mini': { input: 1, output: 1 },
    }),
  );
  const table = loadPriceTable({
    file,
    json: JSON.stringify({ 'gpt-4o-mini': { input: 0.2, output: 0.8 } }),
  });
  expect(table['llama3.1:8b']).toEqual({ input: 0, output: 0 });
  expect(table['gpt-4o-mini']).toEqual({ input: 0.2, output: 0.8 });
  expect(table['gpt-4.1-nano']).toEqual(DEFAULT_PRICES['gpt-4.1-nano']);
});

test('a model is priced as named, without a router prefix, or without its dated snapshot; an unknown one has no price', () => {
  expect(priceOf(DEFAULT_PRICES, 'gpt-4o-mini-2024-07-18')).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
  expect(priceOf(DEFAULT_PRICES, 'openai/gpt-4.1-mini')).toEqual(DEFAULT_PRICES['gpt-4.1-mini']);
  expect(priceOf(DEFAULT_PRICES, 'gpt-fake')).toBeNull();
  expect(priceOf(DEFAULT_PRICES, null)).toBeNull();
  // 1,000 tokens in and 500 out of gpt-4o-mini: 0.15 × 0.001 + 0.60 × 0.0005 dollars.
  expect(costOf(DEFAULT_PRICES['gpt-4o-mini'], 1000, 500)).toBe(0.00045);
});
