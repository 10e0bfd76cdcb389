import { chunksOf, type PageChunk } from './pageChunks.ts';
import { pageDataBlock } from './pageData.ts';
import { fitList, fitText, PROMPT_BUDGET } from './promptBudget.ts';
import { contentTokens } from './text.ts';
import { subjectTokens } from './topicDedupe.ts';
import type { PageInput } from './writer.ts';

/** What one part of the article is about: an outline section, or the whole topic before there is an outline. */
export type ContextQuery = { label: string; text: string };

type Scored = { chunk: PageChunk; score: number };

/**
 * How much a chunk is about the query's words: each word its text or its headings share counts
 * (with diminishing weight for repeats); the page's title adds to a chunk that matches on its own,
 * so a fact deep in a long page ranks by its own section, not by the page around it.
 */
function score(chunk: PageChunk, query: ReadonlySet<string>): number {
  if (query.size === 0) return 0;
  const inHeadings = new Set(contentTokens(chunk.headings.join(' ')));
  const inTitle = new Set(contentTokens(chunk.pageTitle));
  const counts = new Map<string, number>();
  for (const token of contentTokens(chunk.text))
    if (query.has(token)) counts.set(token, (counts.get(token) ?? 0) + 1);
  let own = 0;
  let title = 0;
  for (const token of query) {
    own +=
      (counts.has(token) ? 1 + Math.log(counts.get(token)!) : 0) + (inHeadings.has(token) ? 1 : 0);
    title += inTitle.has(token) ? 0.5 : 0;
  }
  return own > 0 ? (own + title) / Math.sqrt(query.size) : 0;
}

const chunkBlock = (chunk: PageChunk, maxChars: number): string =>
  pageDataBlock(
    { url: chunk.url, page: chunk.pageTitle, section: chunk.headings.join(' › ') },
    fitText(chunk.text, maxChars),
  );

/**
 * The page text a prompt carries: an index of the site's pages (for links and sources), then for
 * each query the chunks that match it best, each shown once, every block marked as page data. The
 * whole fits PROMPT_BUDGET.pages; each query gets an even share, what a query leaves unused goes
 * to the chunks most relevant to the topic as a whole, and what is left then to the other chunks.
 */
export function pageContext(
  pages: readonly PageInput[],
  queries: readonly ContextQuery[],
  topicText: string,
): string {
  if (pages.length === 0) return '(no pages were crawled)';
  const index = pageDataBlock(
    { list: "the site's pages" },
    fitList(
      pages,
      PROMPT_BUDGET.pageIndex,
      (page) =>
        `- ${fitText(page.url, PROMPT_BUDGET.pageTitle * 2)} — ${fitText(page.title, PROMPT_BUDGET.pageTitle)}`,
    ),
  );
  const chunks = pages.flatMap((page) => chunksOf(page, PROMPT_BUDGET.pageChunk));
  const used = new Set<PageChunk>();
  const sections: string[] = [];
  const labels = (queries.length + 2) * (PROMPT_BUDGET.pageTitle + 40) + 40; // the headers around the blocks
  let left = PROMPT_BUDGET.pages - index.length - labels;
  const share = Math.floor(left / Math.max(1, queries.length + 1));
  const take = (ranked: readonly Scored[], room: number): string[] => {
    const blocks: string[] = [];
    for (const { chunk } of ranked) {
      if (room < 400) break;
      if (used.has(chunk)) continue;
      const block = chunkBlock(chunk, Math.min(PROMPT_BUDGET.pageChunk, room - 200));
      if (block.length > room) break;
      used.add(chunk);
      blocks.push(block);
      room -= block.length + 1;
      left -= block.length + 1;
    }
    return blocks;
  };
  const ranked = (text: string): Scored[] => {
    const tokens = subjectTokens(text);
    return chunks
      .map((chunk) => ({ chunk, score: score(chunk, tokens) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score);
  };
  // Each chunk goes to the query it fits best, so one broad section cannot take another's facts.
  const best = new Map<PageChunk, { query: number; score: number }>();
  queries.forEach((query, index) => {
    for (const entry of ranked(query.text))
      if (entry.score > (best.get(entry.chunk)?.score ?? 0))
        best.set(entry.chunk, { query: index, score: entry.score });
  });
  queries.forEach((query, index) => {
    const mine = [...best]
      .filter(([, fit]) => fit.query === index)
      .map(([chunk, fit]) => ({ chunk, score: fit.score }))
      .sort((a, b) => b.score - a.score);
    const blocks = take(mine, share);
    if (blocks.length > 0)
      sections.push(
        `For "${fitText(query.label, PROMPT_BUDGET.pageTitle)}":\n${blocks.join('\n')}`,
      );
  });
  const more = take(ranked(topicText), left);
  if (more.length > 0) sections.push(`More from the site on the topic:\n${more.join('\n')}`);
  // A small site fits whole: what is still left shows the rest of it, in page order.
  const rest = take(
    chunks.map((chunk) => ({ chunk, score: 0 })),
    left,
  );
  if (rest.length > 0) sections.push(`The rest of the site:\n${rest.join('\n')}`);
  return [`The site's pages:\n${index}`, ...sections].join('\n\n');
}
