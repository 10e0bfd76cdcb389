/**
 * A revision may remove at most this share of an article's words unless its instruction asks for
 * a shorter article: a model that answers with a fragment must not replace the article with it.
 */
export const MAX_UNASKED_LOSS = 0.5;

const ASKS_TO_SHORTEN = [
  /\b(?:shorten|shorter|condense|concise|tighten|trim|summari[sz]e|halve|abridge|briefer|too long|fewer words|less text|cut (?:it |this |the article )?down|reduce (?:it|the length|the word count))\b/i,
  /\b(?:remove|delete|drop|cut)\b[^.;\n]{0,40}?\b(?:sections?|paragraphs?|parts?|introduction|intro|conclusion|lists?|examples?|faqs?|everything)\b/i,
];

export const asksToShorten = (instruction: string): boolean =>
  ASKS_TO_SHORTEN.some((pattern) => pattern.test(instruction));

/**
 * Why a revision must not apply because it loses most of the article unasked, or null when it may.
 * The reason is shown on the article, so it says what happened and what to do.
 */
export function unaskedLoss(input: {
  instruction: string;
  wordsBefore: number;
  wordsAfter: number;
  version: number;
}): string | null {
  const { instruction, wordsBefore, wordsAfter, version } = input;
  if (
    wordsBefore === 0 ||
    wordsAfter >= wordsBefore * (1 - MAX_UNASKED_LOSS) ||
    asksToShorten(instruction)
  )
    return null;
  const lost = Math.round((1 - wordsAfter / wordsBefore) * 100);
  return `The revision was not applied: it would have cut the article from ${wordsBefore} to ${wordsAfter} words (${lost}% removed) though the instruction did not ask for a shorter article. Version ${version} stays as it was. Ask again, or say so if you want it shorter ("shorten it to about 300 words").`;
}
