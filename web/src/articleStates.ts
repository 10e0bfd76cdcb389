import type { components } from './api/v1.ts';

export type ArticleStatus = components['schemas']['Article']['status'];

/**
 * The pipeline's states in order, with the words a person reads: one word a state, on the
 * overview, the board and the article page alike. Never show a raw value such as `pr_open`.
 */
export const ARTICLE_STATES: readonly { status: ArticleStatus; label: string }[] = [
  { status: 'queued', label: 'Queued' },
  { status: 'researching', label: 'Researching' },
  { status: 'writing', label: 'Writing' },
  { status: 'draft', label: 'Draft' },
  { status: 'publishing', label: 'Publishing' },
  { status: 'pr_open', label: 'PR open' },
  { status: 'merged', label: 'Merged' },
  { status: 'closed', label: 'Closed' },
  { status: 'failed', label: 'Failed' },
];

const WORDS = new Map(ARTICLE_STATES.map(({ status, label }) => [status, label]));

/** A state's word, capitalised as a heading or label ("PR open"). */
export function articleStateWord(status: ArticleStatus): string {
  return WORDS.get(status) ?? status;
}

/** A state's word inside a sentence ("this article is merged", "… is PR open"). */
export function articleStateInSentence(status: ArticleStatus): string {
  const word = articleStateWord(status);
  return /^[A-Z][a-z]/.test(word) ? word.charAt(0).toLowerCase() + word.slice(1) : word;
}
