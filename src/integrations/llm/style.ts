import { sentences } from './text.ts';
import type { BrandInput } from './writer.ts';

export type StyleRules = { bannedTerms: string[]; noExclamations: boolean; noEmoji: boolean; formal: boolean };

/** Plain replacements for the buzzwords brands most often ban; anything else is cut out. */
const PLAIN: Record<string, string> = {
  leverage: 'use', leverages: 'uses', leveraging: 'using', utilize: 'use', utilise: 'use', utilizes: 'uses', synergy: 'collaboration',
  synergies: 'collaboration', 'cutting-edge': 'modern', revolutionary: 'new', 'world-class': 'excellent', seamless: 'smooth',
  seamlessly: 'smoothly', 'game-changer': 'major change', 'game-changing': 'significant', 'best-in-class': 'leading', disrupt: 'change',
  robust: 'reliable', innovative: 'new', unlock: 'open up', empower: 'help', 'next-generation': 'modern', simply: '', just: '', very: '',
};

/**
 * Reads the brand's don'ts: quoted words, "avoid/never use/don't say X" and short entries become
 * banned terms; mentions of exclamation marks and emoji become those rules.
 */
export function styleRules(brand: BrandInput): StyleRules {
  const bannedTerms = new Set<string>();
  let noExclamations = false;
  let noEmoji = false;
  for (const rule of brand.doDont.dont) {
    const text = rule.trim();
    if (/exclamation/i.test(text)) { noExclamations = true; continue; }
    if (/emoji/i.test(text)) { noEmoji = true; continue; }
    const quoted = [...text.matchAll(/["“'‘]([^"”'’]{2,40})["”'’]/g)].map((m) => m[1]);
    if (quoted.length) { quoted.forEach((term) => bannedTerms.add(term.toLowerCase())); continue; }
    const listed = /^(?:avoid|never use|never say|do not use|don't use|do not say|don't say|no)\s+(?:the\s+)?(?:words?|terms?|phrases?)?\s*(?:like|such as)?\s*:?\s*(.+)$/i.exec(text);
    const terms = listed ? listed[1] : text.split(/\s+/).length <= 3 ? text : '';
    for (const term of terms.split(/,|\bor\b|\band\b/)) {
      const clean = term.trim().replace(/[.;]+$/, '').toLowerCase();
      if (clean && clean.split(/\s+/).length <= 3) bannedTerms.add(clean);
    }
  }
  const formal = brand.voiceTraits.some((trait) => /formal|professional|authoritative|corporate/i.test(trait) && !/in-?formal/i.test(trait));
  return { bannedTerms: [...bannedTerms].sort(), noExclamations, noEmoji, formal };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const termPattern = (term: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}-])${escapeRegExp(term)}(?![\\p{L}\\p{N}-])`, 'giu');

/**
 * Applies the rules to markdown line by line: known buzzwords are replaced, other banned terms
 * take their sentence with them in paragraphs and are cut from headings and list items.
 */
export function enforceStyle(markdown: string, rules: StyleRules): string {
  const lines = markdown.split('\n').map((line) => {
    let out = line;
    if (rules.noExclamations) out = out.replace(/!(?=\s|$)/g, '.');
    if (rules.noEmoji) out = out.replace(/\p{Extended_Pictographic}\uFE0F?/gu, '');
    for (const term of rules.bannedTerms) {
      if (!termPattern(term).test(out)) continue;
      const plain = PLAIN[term];
      const isProse = out.trim() !== '' && !/^\s*(#|[-*] |\d+\. |>|\||```)/.test(out);
      if (plain === undefined && isProse) out = sentences(out).filter((s) => !termPattern(term).test(s)).join(' ');
      else out = out.replace(termPattern(term), (match) => matchCase(plain ?? '', match));
      out = out.replace(/ {2,}/g, ' ').replace(/ ([,.;:])/g, '$1');
    }
    return out;
  });
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

const matchCase = (replacement: string, original: string): string =>
  original[0] && original[0] === original[0].toUpperCase() && replacement ? replacement[0].toUpperCase() + replacement.slice(1) : replacement;

const CONTRACTIONS: Array<[string, string]> = [
  ["don't", 'do not'], ["doesn't", 'does not'], ["didn't", 'did not'], ["can't", 'cannot'], ["won't", 'will not'], ["isn't", 'is not'],
  ["aren't", 'are not'], ["wasn't", 'was not'], ["weren't", 'were not'], ["it's", 'it is'], ["that's", 'that is'], ["you're", 'you are'],
  ["we're", 'we are'], ["they're", 'they are'], ["you'll", 'you will'], ["we'll", 'we will'], ["you've", 'you have'], ["we've", 'we have'],
  ["there's", 'there is'], ["let's", 'let us'], ["shouldn't", 'should not'], ["couldn't", 'could not'], ["wouldn't", 'would not'],
];
const CASUAL: Array<[string, string]> = [['a lot of', 'many'], ['lots of', 'many'], ['kind of', 'somewhat'], ['pretty much', 'largely'],
  ['get started', 'begin'], ['figure out', 'determine'], ['check out', 'review'], ['huge', 'significant'], ['awesome', 'excellent'], ['stuff', 'material']];

export type ToneChange = { text: string; changes: number };

export function formalize(text: string): ToneChange {
  let changes = 0;
  let out = text.replace(/[’]/g, "'");
  for (const [from, to] of [...CONTRACTIONS, ...CASUAL]) {
    out = out.replace(termPattern(from), (match) => { changes++; return matchCase(to, match); });
  }
  out = out.replace(/!(?=\s|$)/g, () => { changes++; return '.'; });
  return { text: out, changes };
}

export function casualize(text: string): ToneChange {
  let changes = 0;
  let out = text;
  for (const [short, long] of CONTRACTIONS) {
    if (long === 'let us' || long === 'cannot') continue;
    out = out.replace(termPattern(long), (match) => { changes++; return matchCase(short, match); });
  }
  return { text: out, changes };
}
