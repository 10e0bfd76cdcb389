/**
 * The terms one don't line bans. A quote opens only where a word does not go on before it and
 * closes only where one does not go on after it, so the apostrophes of "Don't" and "brand's" are
 * never read as quotes; inside a quote an apostrophe followed by a letter ("we're") is part of it,
 * and a quote neither starts nor ends with a space (so the gap between two quotes is not one).
 */
const QUOTED = new RegExp(
  [
    '(?<![\\p{L}\\p{N}])"([^"\\s](?:[^"\\n]{0,78}[^"\\s])?)"',
    '“([^”\\s](?:[^”\\n]{0,78}[^”\\s])?)”',
    '(?<![\\p{L}\\p{N}])‘([^’\\s](?:(?:[^’\\n]|’(?=\\p{L})){0,78}[^’\\s])?)’(?![\\p{L}\\p{N}])',
    "(?<![\\p{L}\\p{N}])'([^'\\s](?:(?:[^'\\n]|'(?=\\p{L})){0,78}[^'\\s])?)'(?![\\p{L}\\p{N}])",
  ].join('|'),
  'gu',
);

/** Where a line turns to what to write instead: "…when you can say "you"", "…; say 'affordable' instead". */
const ALTERNATIVE =
  /\bwhen you (?:can|could|mean)\b|\binstead\b|\brather than\b|\bin favou?r of\b|\bprefer\b|[;—–]\s*(?:say|use|write|try)\b/i;

/** An unquoted list only counts when the line introduces one: "words like a, b and c", "avoid: a, b". */
const LISTED =
  /(?:\b(?:words?|terms?|phrases?|buzzwords?|jargon|clichés?)\s+(?:like|such as|e\.g\.?|including)|\b(?:like|such as)|^(?:avoid|never use|never say|do not use|don['’]t use|do not say|don['’]t say)\s+(?:the\s+)?(?:words?|terms?|phrases?))\s*:?\s+(.+)$|^(?:avoid|never use|don['’]t use|do not use)\s*:\s*(.+)$/i;

/** Short lines that name a kind of writing, not a term: "Never talk down", "No jargon". */
const INSTRUCTION =
  /^(?:no|not|never|avoid|don['’]?t|do not|stop|use|be|keep|write|talk|sound|make|overuse|mention|say|promise|claim|invent|exaggerate)\b|^(?:jargon|slang|hype|clichés?|buzzwords?|contractions|emoji|exclamation)/i;

const MAX_TERM_WORDS = 6;

const clean = (term: string): string =>
  term
    .trim()
    .replace(/^[\s,.;:!?]+|[\s,.;:!?]+$/g, '')
    .replace(/[’‘]/g, "'")
    .toLowerCase();
const isTerm = (term: string): boolean =>
  /\p{L}/u.test(term) && term.split(/\s+/).length <= MAX_TERM_WORDS;

export function bannedTermsOf(line: string): string[] {
  const text = line.trim();
  const cut = ALTERNATIVE.exec(text);
  const banned = cut ? text.slice(0, cut.index) : text;
  const quoted = [...banned.matchAll(QUOTED)].map((match) =>
    clean(match.slice(1).find((group) => group !== undefined) ?? ''),
  );
  if (quoted.length || [...text.matchAll(QUOTED)].length) return quoted.filter(isTerm);
  const listed = LISTED.exec(banned);
  if (listed) {
    return (listed[1] ?? listed[2])
      .replace(/\([^)]*\)/g, '')
      .split(/,|\bor\b|\band\b|\//)
      .map(clean)
      .filter((term) => term && isTerm(term) && term.split(/\s+/).length <= 3);
  }
  const bare = clean(text);
  return isTerm(bare) && bare.split(/\s+/).length <= 3 && !INSTRUCTION.test(bare) ? [bare] : [];
}
