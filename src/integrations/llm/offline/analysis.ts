import { contentTokens, sentences, stem, STOPWORDS, words } from '../text.ts';
import { paragraphsOf } from '../pageParagraphs.ts';
import type { BrandInput, PageInput } from '../writer.ts';

/** Site chrome that shows up on every page and says nothing about the subject. */
const CHROME = new Set(
  (
    'home about contact blog privacy policy cookie cookies login log sign menu terms careers newsletter ' +
    'subscribe copyright rights reserved skip content search read click here page pages site website email faq'
  ).split(' '),
);

export type KeyPhrase = { phrase: string; score: number; pages: PageInput[]; mentions: number };

/**
 * The subjects a site talks about: runs of 1–3 meaningful words, scored by how often and how
 * prominently (title, headings) they appear and on how many pages. Longer phrases win over the
 * single words inside them.
 */
export function keyPhrases(pages: readonly PageInput[], brand: BrandInput): KeyPhrase[] {
  const brandKey = words(brand.name).map(stem).join(' ');
  const brandWords = new Set(brandKey.split(' '));
  const byKey = new Map<
    string,
    { forms: Map<string, number>; score: number; pages: Set<PageInput>; mentions: number }
  >();
  for (const page of pages) {
    const weighted: Array<[string, number]> = [
      [page.title, 4],
      [page.description ?? '', 2],
      ...page.headings.map((h): [string, number] => [h, 3]),
      [paragraphsOf(page.text).join('\n'), 1],
    ];
    for (const [text, weight] of weighted) {
      for (const run of phraseRuns(text)) {
        for (let size = 1; size <= 3; size++) {
          for (let i = 0; i + size <= run.length; i++) {
            const gram = run.slice(i, i + size);
            if (gram.some((word) => CHROME.has(word))) continue;
            const key = gram.map(stem).join(' ');
            // "green tea" is a subject for a tea company; "tea" alone or its own name is not
            if (
              gram.every((word) => brandWords.has(stem(word))) ||
              ` ${key} `.includes(` ${brandKey} `)
            )
              continue;
            const entry = byKey.get(key) ?? {
              forms: new Map(),
              score: 0,
              pages: new Set(),
              mentions: 0,
            };
            const form = gram.join(' ');
            entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
            entry.score += weight * (size === 1 ? 0.5 : size === 2 ? 1.2 : 1.1);
            entry.mentions++;
            entry.pages.add(page);
            byKey.set(key, entry);
          }
        }
      }
    }
  }
  const ranked = [...byKey.entries()]
    .map(([key, entry]) => ({
      key,
      phrase: mostCommon(entry.forms),
      score: entry.score * (1 + 0.5 * (entry.pages.size - 1)),
      pages: [...entry.pages],
      mentions: entry.mentions,
    }))
    .filter((entry) => entry.mentions >= 2 && entry.phrase.length >= 4)
    .sort((a, b) => b.score - a.score || a.phrase.localeCompare(b.phrase));
  const kept: typeof ranked = [];
  for (const entry of ranked) {
    const inside = kept.some(
      (other) =>
        ` ${other.key} `.includes(` ${entry.key} `) || ` ${entry.key} `.includes(` ${other.key} `),
    );
    if (!inside) kept.push(entry);
  }
  return kept.map(({ phrase, score, pages: found, mentions }) => ({
    phrase,
    score,
    pages: found,
    mentions,
  }));
}

/** Runs of meaningful words that do not cross punctuation, so phrases never span two clauses. */
function phraseRuns(text: string): string[][] {
  const runs: string[][] = [];
  for (const clause of text.toLowerCase().split(/[.,;:!?()[\]{}"“”|/\\–—\n]+|\s-\s/)) {
    let run: string[] = [];
    for (const word of words(clause)) {
      if (STOPWORDS.has(word) || /^\d+$/.test(word) || word.length < 3) {
        if (run.length) runs.push(run);
        run = [];
      } else run.push(word);
    }
    if (run.length) runs.push(run);
  }
  return runs;
}

const mostCommon = (forms: Map<string, number>): string =>
  [...forms.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];

/** Sentences worth quoting from the pages, best match first, each once. */
export function relevantSentences(
  pages: readonly PageInput[],
  topicTokens: ReadonlySet<string>,
  limit: number,
): string[] {
  const seen = new Set<string>();
  const scored: Array<{ sentence: string; score: number; order: number }> = [];
  let order = 0;
  for (const page of pages) {
    for (const sentence of paragraphsOf(page.text).flatMap(sentences)) {
      // descriptions are mostly fragments, not sentences
      order++;
      if (
        sentence.length < 40 ||
        sentence.length > 280 ||
        sentence.split(' ').length < 6 ||
        !/[.!?]$/.test(sentence) ||
        seen.has(sentence)
      )
        continue;
      seen.add(sentence);
      const hits = new Set(contentTokens(sentence).filter((token) => topicTokens.has(token))).size;
      if (hits > 0) scored.push({ sentence, score: hits, order });
    }
  }
  return scored
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((entry) => entry.sentence);
}

export const audienceOf = (brand: BrandInput): string | undefined =>
  brand.companyFacts.find((fact) => /audience|customer|client|market|segment/i.test(fact.kind))
    ?.value;
