/** Small, dependency-free text helpers shared by topic dedupe and the offline writer. */

export const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her here hers him his how i if in ' +
    'into is it its itself just me more most my no nor not of off on once only or other our ours out over own same she should so some such ' +
    'than that the their theirs them then there these they this those through to too under until up very was we were what when where which ' +
    'while who whom why will with would you your yours yourself also any each few both all about above after again against before below ' +
    'between during further via per across us get got use using used new one two make makes made may might must shall like well way ways'
  ).split(' '),
);

/** Lowercase words; hyphenated compounds ("loose-leaf") stay one word. */
export const words = (text: string): string[] =>
  text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu) ?? [];

/** A crude English stemmer: enough for "teas"/"tea" and "brewing"/"brew" to meet. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed') && !word.endsWith('eed')) return word.slice(0, -2);
  if (
    word.length > 3 &&
    word.endsWith('s') &&
    !word.endsWith('ss') &&
    !word.endsWith('us') &&
    !word.endsWith('is')
  )
    return word.slice(0, -1);
  return word;
}

/** Meaningful, stemmed words of a text; compounds split, so "cold-brewing" meets "cold brew". */
export const contentTokens = (text: string): string[] =>
  words(text)
    .flatMap((word) => word.split('-'))
    .filter((word) => !STOPWORDS.has(word) && word.length > 1)
    .map(stem);

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const item of a) if (b.has(item)) shared++;
  return shared / (a.size + b.size - shared);
}

export const sentences = (text: string): string[] =>
  text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“])/u)
    .map((s) => s.trim())
    .filter(Boolean);

export const capitalize = (text: string): string =>
  text ? text[0].toUpperCase() + text.slice(1) : text;

/** Lowercases the first letter for use mid-sentence, unless the first word is an acronym or a name ("SEO", "Fernleaf"). */
export const midSentence = (text: string, names: readonly string[] = []): string =>
  /^\p{Lu}[\p{Lu}\p{N}]/u.test(text) || names.some((name) => name && text.startsWith(name))
    ? text
    : text.charAt(0).toLowerCase() + text.slice(1);

const SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'but',
  'by',
  'for',
  'in',
  'of',
  'on',
  'or',
  'the',
  'to',
  'vs',
  'with',
]);

export const titleCase = (text: string): string =>
  text
    .split(' ')
    .map((word, i) =>
      i > 0 && SMALL_WORDS.has(word.toLowerCase()) ? word.toLowerCase() : capitalize(word),
    )
    .join(' ');

/** FNV-1a: a stable 32-bit hash, so "random" choices repeat exactly for the same input. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export const pick = <T>(items: readonly T[], seed: string): T =>
  items[hashString(seed) % items.length];

export function truncateAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[\s,;:.-]+$/, '')}…`;
}
