import { normalise, visibleText } from './bodyText.ts';

/**
 * What makes a sentence a checkable claim: a number (years, prices and percentages included), a
 * superlative, or a health/medical claim. Each marker is a word or number the supporting passage
 * must contain too, so a quote about something else does not support the sentence. Tokens are in
 * the `comparable` form, so "1,000" and "1000" are one figure.
 */
export type ClaimMarker = { kind: 'number' | 'price' | 'superlative' | 'health'; token: string };

const NUMBER = /(?<![\p{L}\d.,])\d+(?:\.\d+)?(?![\p{L}\d]|[.,]\d)/gu;
const PRICE_WORD = /\b(?:dollars?|euros?|pounds? sterling|usd|eur|gbp)\b/gi;
const SUPERLATIVES =
  'best|worst|fastest|cheapest|largest|biggest|smallest|highest|lowest|strongest|healthiest|finest|greatest|oldest|newest|longest|shortest|lightest|heaviest|quietest|safest|cleanest';
const SUPERLATIVE = new RegExp(
  `\\b(?:${SUPERLATIVES}|most popular|most trusted|the most|the least|leading|number one|unrivalled|unrivaled|unmatched|unbeatable|world's first)\\b`,
  'gi',
);
/** Words that make a sentence a health or medical claim (a bakery's "treats" are not: no "treat" here). */
const HEALTH =
  /\b(?:cur(?:e|es|ed|ing)|heal(?:s|ed|ing)?|remed(?:y|ies)|therap(?:y|ies|eutic)|diagnos\w*|symptoms?|diseases?|illness(?:es)?|anxiety|depression|cancer|diabet\w*|blood pressure|cholesterol|immun(?:e|ity)|detox\w*|weight loss|lose weight|inflammat\w*|insomnia|medical(?:ly)?|medicin(?:e|al)|clinical(?:ly)?|antioxidants?|metabolism)\b/gi;

/**
 * Phrases that use a superlative word without claiming anything: "make the most of", "at best",
 * "do your best", "not the biggest one" (advice against the superlative, not a claim of it),
 * "leading to". A reader does not check these against the site, so neither does the gate.
 */
const IDIOMS = new RegExp(
  [
    `\\b(?:make|makes|making|made|get|gets|getting|got) the most (?:of|out of)\\b`,
    `\\bmost of all\\b`,
    `\\bat (?:the very )?(?:best|worst|most|least)\\b`,
    `\\b(?:do|does|doing|did|try|tries|trying|tried) (?:your|our|their|my|his|her|its) best\\b`,
    `\\bbest of all\\b`,
    `\\ball the best\\b`,
    `\\bbest before\\b`,
    `\\bhope for the best\\b`,
    `\\blast but not least\\b`,
    `\\bnot (?:necessarily |always )?the (?:${SUPERLATIVES}|most|least)\\b`,
    `\\bleading (?:to|up to|into)\\b`,
  ].join('|'),
  'gi',
);

const NUMBER_WORDS: Record<string, string> = {
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  fifteen: '15',
  twenty: '20',
  thirty: '30',
  fifty: '50',
  hundred: '100',
};
const NUMBER_WORD = new RegExp(`\\b(?:${Object.keys(NUMBER_WORDS).join('|')})\\b`, 'g');

/**
 * A text as a reader compares figures: lowercase, one kind of dash and quote, "1,000" = "1000",
 * "85 per cent" = "85%", "2–4 kW" = "2-4kW" = "2 to 4 kW" = "between 2 and 4 kW", "£ 12" = "£12".
 * `numberWords` also reads "two to three" as "2-3" (for the site's side: a sentence that writes
 * its figures as digits is still supported by a page that spells them out).
 */
export function comparable(text: string, options: { numberWords?: boolean } = {}): string {
  let out = normalise(text);
  if (options.numberWords) out = out.replace(NUMBER_WORD, (word) => NUMBER_WORDS[word]);
  return out
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    .replace(/\s*\bper ?cent\b/g, '%')
    .replace(/(\d) %/g, '$1%')
    .replace(/\bbetween (\d+(?:\.\d+)?) and (\d+(?:\.\d+)?)/g, '$1-$2')
    .replace(/(\d)\s*(?:-|to)\s*(?=[£$€]?\d)/g, '$1-')
    .replace(/(\d)(?=[a-z°])/g, '$1 ')
    .replace(/([£$€]) (?=\d)/g, '$1');
}

/** A text without its idioms: a site's "not the biggest one" does not support "the biggest". */
export const withoutIdioms = (text: string): string => text.replace(IDIOMS, ' ');

/** Months and words that precede a figure without naming anything ("In 2016", "Every 30 days"). */
const NOT_A_NAME = new Set(
  (
    'a an and are as at be but by for from in into is it of on or our the their to up we with within ' +
    'about after all around before between by during each every from just only over since than under until ' +
    'page chapter step top over nearly almost roughly about approximately up to all ' +
    'january february march april may june july august september october november december ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday'
  ).split(' '),
);
/** A capitalised word and a small number that is not a quantity: "Cell 5", "Model 3", "Windows 11". */
const NAME =
  /(?<![\p{L}\d])(\p{Lu}[\p{L}]+)[ -](\d{1,3}(?:\.\d+)?)(?![\p{L}\d]|[.,]\d|\s*(?:%|°))/gu;

/**
 * The names on the site that contain a figure ("Cell 5"), lowercased: in an article their number
 * names a product, it does not state a quantity. Read from the pages' text and titles and the
 * company facts, where the site writes them capitalised.
 */
export function siteNames(texts: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const text of texts)
    for (const match of visibleText(text).matchAll(NAME)) {
      const word = match[1].toLowerCase();
      if (!NOT_A_NAME.has(word)) names.add(`${word} ${match[2]}`);
    }
  return names;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');

/**
 * The sentence with what is not a claim taken out: links' addresses, idioms, the site's product
 * names. A name the site does not have ("Cell 20" where it sells the Cell 5 and the Cell 10) is a
 * claim of its own: its marker is the whole name, which no passage about "20 kWh" carries.
 */
function claimText(
  sentence: string,
  names: ReadonlySet<string>,
): { text: string; inventedNames: string[] } {
  let text = comparable(visibleText(sentence).replace(/https?:\/\/\S+/g, ' ')).replace(IDIOMS, ' ');
  const heads = new Set<string>();
  for (const name of names) {
    const [word, figure] = name.split(' ');
    heads.add(word);
    text = text.replace(
      new RegExp(
        `(?<![\\p{L}\\d])${escape(word)}[ -]${escape(figure)}(?![\\p{L}\\d]|[.,]\\d)`,
        'gu',
      ),
      ` ${word} `,
    );
  }
  const inventedNames: string[] = [];
  for (const head of heads)
    text = text.replace(
      new RegExp(
        `(?<![\\p{L}\\d])${escape(head)}[ -](\\d+(?:\\.\\d+)?)(?![\\p{L}\\d]|[.,]\\d)`,
        'gu',
      ),
      (_match, figure: string) => {
        inventedNames.push(`${head} ${figure}`);
        return ` ${head} `;
      },
    );
  return { text, inventedNames };
}

const tokens = (pattern: RegExp, text: string) => [
  ...new Set([...text.matchAll(pattern)].map((match) => match[0].toLowerCase())),
];

export function claimMarkers(
  sentence: string,
  names: ReadonlySet<string> = new Set(),
): ClaimMarker[] {
  const { text, inventedNames } = claimText(sentence, names);
  return [
    ...[...new Set(inventedNames)].map((token) => ({ kind: 'number' as const, token })),
    ...tokens(NUMBER, text).map((token) => ({ kind: 'number' as const, token })),
    ...tokens(PRICE_WORD, text).map((token) => ({ kind: 'price' as const, token })),
    ...tokens(SUPERLATIVE, text).map((token) => ({ kind: 'superlative' as const, token })),
    ...tokens(HEALTH, text).map((token) => ({ kind: 'health' as const, token })),
  ];
}

export const isHealthClaim = (sentence: string): boolean =>
  claimMarkers(sentence).some((marker) => marker.kind === 'health');

/** Whether a passage in `comparable` form carries every marker: the same number, the same superlative, a health word of the same stem. */
export function passageCarries(passage: string, markers: readonly ClaimMarker[]): boolean {
  return markers.every((marker) => {
    if (marker.kind === 'health')
      return passage.includes(marker.token.slice(0, Math.max(4, marker.token.length - 3)));
    if (!passage.includes(marker.token)) return false;
    return new RegExp(
      `(?<![\\p{L}\\d]|\\d[.,])${escape(marker.token)}(?![\\p{L}\\d]|[.,]\\d)`,
      'u',
    ).test(passage);
  });
}
