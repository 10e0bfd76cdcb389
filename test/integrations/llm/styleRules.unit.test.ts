import { expect, test } from 'vitest';
import { fernleafBrand } from '../../support/brandFixture.ts';
import { cutTerm, enforceStyle, styleRules } from '../../../src/integrations/llm/style.ts';

const rulesOf = (...dont: string[]) =>
  styleRules({ ...fernleafBrand, voiceTraits: [], doDont: { do: [], dont } });

test("a hostile don't line (regex syntax, unclosed quotes, an empty quote) bans literal terms only and changes no other text", () => {
  const rules = rulesOf('Never say "(.*)" or "c++" or "" or "$&', 'Don\'t "', "'''");
  expect(rules.bannedTerms).toEqual(['c++']);
  const body = '## (.*) and C++ for you\n\nWe write c++ daily. $& stays.\n';
  expect(enforceStyle(body, rules)).toBe(body);
});

/** Real don't lines (the brand learner's own and ones editors write) and the terms each bans. */
test.each<[string, string[]]>([
  [
    'Don\'t slip into corporate jargon ("leverage", "synergy", "solutions").',
    ['leverage', 'solutions', 'synergy'],
  ],
  [
    'Don’t slip into corporate jargon (“leverage”, “synergy”, “solutions”).',
    ['leverage', 'solutions', 'synergy'],
  ],
  [
    'Don\'t talk about "users" or "customers" in the abstract when you can say "you".',
    ['customers', 'users'],
  ],
  ["Don't invent facts, numbers, prices or customer names that are not in the company facts.", []],
  ["Don't use contractions, slang or jokes.", []],
  ["Don't write long, winding sentences.", []],
  ['Never use "leverage"', ['leverage']],
  ['Avoid the words "synergy" and "revolutionary"', ['revolutionary', 'synergy']],
  ['No jargon like "synergy"', ['synergy']],
  ['Never talk down', []],
  ['Avoid long sentences.', []],
  ["Don't say 'utilize' when you mean 'use'.", ['utilize']],
  ['Don’t call our tea ‘cheap’; say ‘affordable’ instead.', ['cheap']],
  [
    'Avoid buzzwords like leverage, synergy and game-changer.',
    ['game-changer', 'leverage', 'synergy'],
  ],
  ['Don\'t open with "In today\'s fast-paced world".', ["in today's fast-paced world"]],
  ["Never use the word 'awesome' or the brand's old name.", ['awesome']],
  ['game-changer', ['game-changer']],
  ['Don\'t overuse "we\'re" — the reader matters more than we do.', ["we're"]],
])('%s', (line, terms) => {
  expect(rulesOf(line).bannedTerms).toEqual(terms);
});

test('exclamation and emoji lines become those rules and nothing else', () => {
  expect(rulesOf("Don't use exclamation marks.", "Don't use emoji.")).toMatchObject({
    bannedTerms: [],
    noExclamations: true,
    noEmoji: true,
  });
});

test('a banned term with a plain word is rephrased; any other is left for the writer: no sentence is deleted and no heading cut', () => {
  const rules = rulesOf('Don\'t slip into corporate jargon ("leverage", "synergy", "solutions").');
  const body =
    '## Our solutions for you\n\nWe leverage fresh leaves. Our solutions ship in two days. Synergy matters.\n\n- Leverage the kettle\n';
  expect(enforceStyle(body, rules)).toBe(
    '## Our solutions for you\n\nWe use fresh leaves. Our solutions ship in two days. Collaboration matters.\n\n- Use the kettle\n',
  );
});

test('an editor\'s "remove the word" cuts only the word: its sentences stay', () => {
  expect(
    cutTerm(
      '## Truly fresh bread\n\nOur bread is truly fresh, and truly cheap. We bake at 5am.\n',
      'truly',
    ),
  ).toBe('## fresh bread\n\nOur bread is fresh, and cheap. We bake at 5am.\n');
});
