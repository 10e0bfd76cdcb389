import type { CrawledPage } from '../../../../integrations/crawler/types.ts';

export type Sentence = { text: string; words: number; sourceUrl: string };

// Splits after . ! ? (and closing quotes) when the next sentence starts with a capital, digit or quote.
const boundary = /(?<=[.!?]["”’)]?)\s+(?=["“‘(]?[\p{Lu}\d])/u;
const abbreviation = /\b(?:e\.g|i\.e|etc|vs|Mr|Mrs|Ms|Dr|St|Inc|Ltd|Co|Jr|Sr|No)\.$/;

export const countWords = (text: string) =>
  text.split(/\s+/).filter((word) => /[\p{L}\d]/u.test(word)).length;

/** Splits one line of page text into sentences, keeping abbreviations like "Co." inside. */
export function splitSentences(line: string): string[] {
  const pieces = line.split(boundary);
  const sentences: string[] = [];
  for (const piece of pieces) {
    const previous = sentences.at(-1);
    if (previous !== undefined && abbreviation.test(previous))
      sentences[sentences.length - 1] = `${previous} ${piece}`;
    else sentences.push(piece);
  }
  return sentences.map((sentence) => sentence.trim()).filter(Boolean);
}

/** Pages in a stable order (by URL), so the same crawl always teaches the same profile. */
export const stablePages = (pages: readonly CrawledPage[]) =>
  [...pages].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));

/**
 * The prose sentences of the pages. A line counts when it ends like a sentence or is long enough
 * to be one; lines repeated on most pages (banners, sign-up blurbs) are dropped as boilerplate.
 */
export function proseSentences(pages: readonly CrawledPage[]): Sentence[] {
  const linePages = new Map<string, number>();
  for (const page of pages)
    for (const line of new Set(page.text.split('\n')))
      linePages.set(line, (linePages.get(line) ?? 0) + 1);
  const boilerplate = (line: string) =>
    pages.length >= 3 && (linePages.get(line) ?? 0) > pages.length / 2;

  const sentences: Sentence[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    for (const line of page.text.split('\n')) {
      if (boilerplate(line)) continue;
      for (const text of splitSentences(line)) {
        const words = countWords(text);
        const prose = words >= 3 && (/[.!?]["”’)]?$/.test(text) || words >= 8);
        if (!prose || seen.has(text)) continue;
        seen.add(text);
        sentences.push({ text, words, sourceUrl: page.url });
      }
    }
  }
  return sentences;
}

/** Every sentence a fact may come from: prose, description and footer, each with its page. */
export function factSentences(pages: readonly CrawledPage[]): Sentence[] {
  const sentences: Sentence[] = [];
  for (const page of pages) {
    const lines = [
      ...page.text.split('\n'),
      page.description ?? '',
      ...page.footerText.split('\n'),
    ];
    for (const line of lines) {
      for (const text of splitSentences(line))
        sentences.push({ text, words: countWords(text), sourceUrl: page.url });
    }
  }
  return sentences;
}
