import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  fitList,
  fitText,
  focusOf,
  mostRelevantFirst,
} from '../../../src/integrations/llm/promptBudget.ts';

test('text that fits is left whole; longer text is cut at a paragraph end, with a marker saying how much was cut', () => {
  expect(fitText('Short.', 100)).toBe('Short.');
  const text = `${'First paragraph, one sentence. '.repeat(3).trim()}\n\n${'Second paragraph runs long. '.repeat(20).trim()}`;
  const cut = fitText(text, 200);
  expect(cut).toBe(
    `${'First paragraph, one sentence. '.repeat(3).trim()}\n[… ${(text.length - 92).toLocaleString('en-US')} more characters cut to fit the prompt]`,
  );
});

test('without a paragraph break in reach the cut falls at a sentence end, then at a word', () => {
  const sentences = 'One sentence here. Another one follows it. '.repeat(10);
  expect(fitText(sentences, 120)).toMatch(
    /^One sentence here\. Another one follows it\.( [^[]+\.)? \[… [\d,]+ more characters cut to fit the prompt\]$/,
  );
  const words = 'word '.repeat(100);
  expect(fitText(words, 120)).toMatch(/^(word )+\[… [\d,]+ more characters/);
});

test('whatever the text and budget, the result fits the budget', () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 3_000 }),
      fc.integer({ min: 60, max: 2_000 }),
      (text, max) => {
        expect(fitText(text, max).length).toBeLessThanOrEqual(max);
      },
    ),
  );
  fc.assert(
    fc.property(
      fc.array(fc.string({ maxLength: 400 }), { maxLength: 200 }),
      fc.integer({ min: 100, max: 3_000 }),
      (items, max) => {
        expect(fitList(items, max, (item) => `- ${item}`).length).toBeLessThanOrEqual(max);
      },
    ),
  );
});

test('a list keeps items in order while they fit, then says how many were left out', () => {
  const list = fitList(
    Array.from({ length: 50 }, (_, i) => `item ${i + 1}`),
    100,
    (item) => `- ${item}`,
  );
  expect(list.split('\n').at(-1)).toMatch(/^\[… and \d+ more not shown\]$/);
  expect(list.startsWith('- item 1\n- item 2\n')).toBe(true);
});

test('items sharing words with the focus come first, the rest keep their order', () => {
  const focus = focusOf(['Sourdough pricing', 'Proofing sourdough overnight']);
  expect(
    mostRelevantFirst(
      ['Maritime law', 'Tax forms', 'Proofing baskets', 'Sourdough proofing'],
      focus,
      (item) => item,
    ),
  ).toEqual(['Sourdough proofing', 'Proofing baskets', 'Maritime law', 'Tax forms']);
});
