import { expect, test } from 'vitest';
import { asksToShorten, unaskedLoss } from '../../../src/domain/articles/revisionLoss.ts';
import { LlmError } from '../../../src/integrations/llm/port.ts';
import { PROMPT_BUDGET } from '../../../src/integrations/llm/promptBudget.ts';
import { pagesForRevision, revisionPrompt } from '../../../src/integrations/llm/revisePrompt.ts';
import type { PageInput } from '../../../src/integrations/llm/writer.ts';
import { fernleafBrand as brand, fernleafPages } from '../../support/brandFixture.ts';

const topic = { title: 'How to brew green tea', keyword: 'green tea', brief: '' };
const manyPages: PageInput[] = Array.from({ length: 100 }, (_, i) => ({
  url: `https://fernleaf.example/p/${i}`,
  title: `Green tea page ${i} ${'long title '.repeat(40)}`,
  description: 'd'.repeat(2_000),
  headings: Array.from({ length: 50 }, (_, h) => `Heading ${h} about green tea`),
  text: 'Green tea facts. '.repeat(1_000),
}));

test('however big the instruction, outline and site, the revision prompt stays within its budgets plus the body', () => {
  const body = 'Green tea body. '.repeat(1_000);
  const prompt = revisionPrompt({
    body,
    instruction: `Mention green tea ${'again and again '.repeat(2_000)}`,
    brand,
    topic,
    pages: manyPages,
    outline: Array.from({ length: 200 }, (_, i) => ({
      heading: `Section ${i}`,
      points: ['a point '.repeat(50)],
    })),
  });
  const budgets =
    PROMPT_BUDGET.revisionInstruction +
    PROMPT_BUDGET.revisionOutline +
    PROMPT_BUDGET.revisionPages +
    PROMPT_BUDGET.pageTitle * 2;
  expect(prompt.length).toBeLessThan(body.length + budgets + 2_000);
  expect(prompt.endsWith(body)).toBe(true); // the body is never cut: a cut body would come back cut
});

test('a body over its budget is refused with a reason instead of being cut', () => {
  const body = 'x'.repeat(PROMPT_BUDGET.revisionBody + 1);
  expect(() =>
    revisionPrompt({ body, instruction: 'Shorten it', brand, topic, pages: [], outline: [] }),
  ).toThrow(
    expect.objectContaining({
      kind: 'bad_request',
      reason: expect.stringMatching(
        /too long for a model revision \(24,001 characters of body; at most 24,000\)/,
      ),
    }) as unknown as LlmError,
  );
});

test('the pages shown to a revision are those its instruction is about, not the editing words', () => {
  const pages = pagesForRevision({
    instruction: 'Add a section that mentions our Dragon Well',
    topic,
    pages: fernleafPages,
  });
  expect(pages[0].url).toBe('https://fernleaf.example/shop/green-tea');
  expect(pages.length).toBeLessThanOrEqual(5);
});

test.each([
  ['Make the second paragraph warmer.', false],
  ['Remove the word "leverage"', false],
  ['Mention our gyokuro', false],
  ['Shorten it to two sentences.', true],
  ['This is too long, cut it down', true],
  ['Remove the section about storage', true],
  ['Delete the last two paragraphs', true],
  ['Make it more concise', true],
])('"%s" asks for a shorter article: %s', (instruction, expected) => {
  expect(asksToShorten(instruction)).toBe(expected);
});

test('a revision may lose up to half the words unasked; beyond that it is refused with the figures', () => {
  expect(
    unaskedLoss({ instruction: 'Warmer', wordsBefore: 100, wordsAfter: 50, version: 2 }),
  ).toBeNull();
  expect(
    unaskedLoss({ instruction: 'Warmer', wordsBefore: 100, wordsAfter: 49, version: 2 }),
  ).toMatch(/from 100 to 49 words \(51% removed\).*Version 2 stays as it was/);
  expect(
    unaskedLoss({ instruction: 'Shorten it', wordsBefore: 100, wordsAfter: 5, version: 2 }),
  ).toBeNull();
});
