import { bannedTermsOf } from './brandRuleTerms.ts';
import { sentences } from './text.ts';
import type { BrandInput } from './writer.ts';

export type StyleRules = {
  bannedTerms: string[];
  noExclamations: boolean;
  noEmoji: boolean;
  formal: boolean;
};

/** Plain replacements for the buzzwords brands most often ban; anything else is cut out. */
const PLAIN: Record<string, string> = {
  leverage: 'use',
  leverages: 'uses',
  leveraging: 'using',
  utilize: 'use',
  utilise: 'use',
  utilizes: 'uses',
  synergy: 'collaboration',
  synergies: 'collaboration',
  'cutting-edge': 'modern',
  revolutionary: 'new',
  'world-class': 'excellent',
  seamless: 'smooth',
  seamlessly: 'smoothly',
  'game-changer': 'major change',
  'game-changing': 'significant',
  'best-in-class': 'leading',
  disrupt: 'change',
  robust: 'reliable',
  innovative: 'new',
  unlock: 'open up',
  empower: 'help',
  'next-generation': 'modern',
  simply: '',
  just: '',
  very: '',
};

/**
 * Reads the brand's don'ts: the terms each line bans (see `bannedTermsOf`), and mentions of
 * exclamation marks and emoji as those rules.
 */
export function styleRules(brand: BrandInput): StyleRules {
  const bannedTerms = new Set<string>();
  let noExclamations = false;
  let noEmoji = false;
  for (const rule of brand.doDont.dont) {
    if (/exclamation/i.test(rule)) noExclamations = true;
    if (/emoji/i.test(rule)) noEmoji = true;
    for (const term of bannedTermsOf(rule)) bannedTerms.add(term);
  }
  const formal = brand.voiceTraits.some(
    (trait) =>
      /formal|professional|authoritative|corporate/i.test(trait) && !/in-?formal/i.test(trait),
  );
  return { bannedTerms: [...bannedTerms].sort(), noExclamations, noEmoji, formal };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const termPattern = (term: string): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}-])${escapeRegExp(term)}(?![\\p{L}\\p{N}-])`, 'giu');

/**
 * Applies the rules to markdown line by line. A banned term with a plain equivalent is rephrased
 * with it; any other is left where it stands for the writer to rephrase (`bannedTermMatches`
 * finds them), because cutting it out deletes meaning: a sentence lost, "Our for you" for a heading.
 */
export function enforceStyle(markdown: string, rules: StyleRules): string {
  const lines = markdown.split('\n').map((line) => {
    let out = line;
    if (rules.noExclamations) out = out.replace(/!(?=\s|$)/g, '.');
    if (rules.noEmoji) out = out.replace(/\p{Extended_Pictographic}\uFE0F?/gu, '');
    const isProse = out.trim() !== '' && !/^\s*(#|[-*] |\d+\. |>|\||```)/.test(out);
    for (const term of rules.bannedTerms) {
      const plain = PLAIN[term];
      // An empty equivalent ("very", "just") is a deletion: fine mid-sentence, not in a heading or list item.
      if (plain === undefined || (plain === '' && !isProse) || !termPattern(term).test(out))
        continue;
      out = out
        .replace(termPattern(term), (match) => matchCase(plain, match))
        .replace(/ {2,}/g, ' ')
        .replace(/ ([,.;:])/g, '$1');
    }
    return out;
  });
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** Cuts a term out where it stands (an editor's "remove the word X"), leaving the rest of each sentence. */
export function cutTerm(markdown: string, term: string): string {
  return markdown
    .split('\n')
    .map((line) =>
      termPattern(term).test(line)
        ? line
            .replace(termPattern(term), '')
            .replace(/(\S) {2,}/g, '$1 ')
            .replace(/ ([,.;:])/g, '$1')
            .replace(/^(\s*(?:#+|[-*]|\d+\.) ) +/, '$1')
        : line,
    )
    .join('\n');
}

export type BannedTermMatch = { term: string; sentence: string; offset: number };

/** Where banned terms still stand in a text, sentence by sentence, for the writer to rephrase. */
export function bannedTermMatches(markdown: string, rules: StyleRules): BannedTermMatch[] {
  const found: BannedTermMatch[] = [];
  for (const term of rules.bannedTerms) {
    for (const match of markdown.matchAll(termPattern(term))) {
      const start = Math.max(markdown.lastIndexOf('\n', match.index) + 1, 0);
      const end = markdown.indexOf('\n', match.index);
      const line = markdown.slice(start, end === -1 ? undefined : end);
      const sentence = sentences(line).find((s) => termPattern(term).test(s)) ?? line;
      found.push({ term, sentence: sentence.trim(), offset: match.index });
    }
  }
  return found.sort((a, b) => a.offset - b.offset);
}

const matchCase = (replacement: string, original: string): string =>
  original[0] && original[0] === original[0].toUpperCase() && replacement
    ? replacement[0].toUpperCase() + replacement.slice(1)
    : replacement;

const CONTRACTIONS: Array<[string, string]> = [
  ["don't", 'do not'],
  ["doesn't", 'does not'],
  ["didn't", 'did not'],
  ["can't", 'cannot'],
  ["won't", 'will not'],
  ["isn't", 'is not'],
  ["aren't", 'are not'],
  ["wasn't", 'was not'],
  ["weren't", 'were not'],
  ["it's", 'it is'],
  ["that's", 'that is'],
  ["you're", 'you are'],
  ["we're", 'we are'],
  ["they're", 'they are'],
  ["you'll", 'you will'],
  ["we'll", 'we will'],
  ["you've", 'you have'],
  ["we've", 'we have'],
  ["there's", 'there is'],
  ["let's", 'let us'],
  ["shouldn't", 'should not'],
  ["couldn't", 'could not'],
  ["wouldn't", 'would not'],
];
const CASUAL: Array<[string, string]> = [
  ['a lot of', 'many'],
  ['lots of', 'many'],
  ['kind of', 'somewhat'],
  ['pretty much', 'largely'],
  ['get started', 'begin'],
  ['figure out', 'determine'],
  ['check out', 'review'],
  ['huge', 'significant'],
  ['awesome', 'excellent'],
  ['stuff', 'material'],
];

export type ToneChange = { text: string; changes: number };

export function formalize(text: string): ToneChange {
  let changes = 0;
  let out = text.replace(/[’]/g, "'");
  for (const [from, to] of [...CONTRACTIONS, ...CASUAL]) {
    out = out.replace(termPattern(from), (match) => {
      changes++;
      return matchCase(to, match);
    });
  }
  out = out.replace(/!(?=\s|$)/g, () => {
    changes++;
    return '.';
  });
  return { text: out, changes };
}

export function casualize(text: string): ToneChange {
  let changes = 0;
  let out = text;
  for (const [short, long] of CONTRACTIONS) {
    if (long === 'let us' || long === 'cannot') continue;
    out = out.replace(termPattern(long), (match) => {
      changes++;
      return matchCase(short, match);
    });
  }
  return { text: out, changes };
}
