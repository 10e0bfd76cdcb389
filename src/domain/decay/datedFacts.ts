/**
 * Sentences of an article's text that state something as of a date: a year up to the year it was
 * published, words that only hold when written ("latest", "currently", "this year"), version
 * numbers. The text is the article's own Markdown; only its prose sentences are looked at.
 */
const MAX_SENTENCES = 5;
const MAX_LENGTH = 200;

const TIME_WORDS =
  /\b(latest|newest|currently|this year|right now|as of today|recently released)\b/i;
const VERSION = /\b(v\d+(\.\d+)+|\d+\.\d+\.\d+|version \d+(\.\d+)*)\b/i;
const YEAR = /\b(19[5-9]\d|20\d\d)\b/g;

function prose(markdown: string): string[] {
  const body = markdown.replace(/^---\n[\s\S]*?\n---\n/, '');
  return body
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/\n\s*\n/)
    .filter((block) => !/^\s*(#|import |export |<|!\[)/.test(block))
    .flatMap((block) => block.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/))
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

export function datedSentences(markdown: string, publishedYear: number): string[] {
  const found: string[] = [];
  for (const sentence of prose(markdown)) {
    const years = [...sentence.matchAll(YEAR)].map((match) => Number(match[1]));
    const dated =
      years.some((year) => year <= publishedYear) ||
      TIME_WORDS.test(sentence) ||
      VERSION.test(sentence);
    if (!dated) continue;
    found.push(sentence.length > MAX_LENGTH ? `${sentence.slice(0, MAX_LENGTH - 1)}…` : sentence);
    if (found.length === MAX_SENTENCES) break;
  }
  return found;
}
