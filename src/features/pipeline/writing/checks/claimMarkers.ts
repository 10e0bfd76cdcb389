import { visibleText } from './bodyText.ts';

/**
 * What makes a sentence a checkable claim: a number (years, prices and percentages included), a
 * superlative, or a health/medical claim. Each marker is a word or number the supporting passage
 * must contain too, so a quote about something else does not support the sentence.
 */
export type ClaimMarker = { kind: 'number' | 'price' | 'superlative' | 'health'; token: string };

const NUMBER = /(?<![\p{L}\d])\d+(?:[.,]\d+)*(?![\p{L}\d])/gu;
const PRICE_WORD = /\b(?:dollars?|euros?|pounds? sterling|usd|eur|gbp)\b/gi;
const PERCENT_WORD = /\bper ?cent\b/gi;
const SUPERLATIVE =
  /\b(?:best|worst|fastest|cheapest|largest|biggest|smallest|highest|lowest|strongest|healthiest|finest|greatest|oldest|newest|most popular|most trusted|the most|the least|leading|number one|unrivalled|unrivaled|unmatched|unbeatable|world's first)\b/gi;
/** Words that make a sentence a health or medical claim (a bakery's "treats" are not: no "treat" here). */
const HEALTH =
  /\b(?:cur(?:e|es|ed|ing)|heal(?:s|ed|ing)?|remed(?:y|ies)|therap(?:y|ies|eutic)|diagnos\w*|symptoms?|diseases?|illness(?:es)?|anxiety|depression|cancer|diabet\w*|blood pressure|cholesterol|immun(?:e|ity)|detox\w*|weight loss|lose weight|inflammat\w*|insomnia|medical(?:ly)?|medicin(?:e|al)|clinical(?:ly)?|antioxidants?|metabolism)\b/gi;

const tokens = (pattern: RegExp, text: string) => [
  ...new Set([...text.matchAll(pattern)].map((match) => match[0].toLowerCase())),
];

export function claimMarkers(sentence: string): ClaimMarker[] {
  const text = visibleText(sentence).replace(/https?:\/\/\S+/g, ' ');
  return [
    ...tokens(NUMBER, text).map((token) => ({ kind: 'number' as const, token })),
    ...tokens(PERCENT_WORD, text).map((token) => ({ kind: 'number' as const, token })),
    ...tokens(PRICE_WORD, text).map((token) => ({ kind: 'price' as const, token })),
    ...tokens(SUPERLATIVE, text).map((token) => ({ kind: 'superlative' as const, token })),
    ...tokens(HEALTH, text).map((token) => ({ kind: 'health' as const, token })),
  ];
}

export const isHealthClaim = (sentence: string): boolean =>
  claimMarkers(sentence).some((marker) => marker.kind === 'health');

/** Whether a normalised passage carries every marker: the same number, the same superlative, a health word of the same stem. */
export function passageCarries(passage: string, markers: readonly ClaimMarker[]): boolean {
  return markers.every((marker) => {
    if (marker.kind === 'health')
      return passage.includes(marker.token.slice(0, Math.max(4, marker.token.length - 3)));
    const escaped = marker.token.replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');
    return new RegExp(`(?<![\\p{L}\\d])${escaped}(?![\\p{L}\\d])`, 'u').test(passage);
  });
}
