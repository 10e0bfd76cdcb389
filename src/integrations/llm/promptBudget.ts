import { contentTokens } from './text.ts';

/**
 * The most characters each section of a prompt may take, so no prompt grows with the size of a
 * project (its topics, articles, pages or a published file). About 4 characters make a token; the
 * largest prompt (a refresh draft) stays under ~12,000 tokens whatever the project holds.
 */
export const PROMPT_BUDGET = {
  /** The "do not repeat" list of a topic-research run: the most relevant existing topics and articles. */
  existingTopics: 4_000,
  /** The crawled pages digest (per page: a share of this, at least PAGE_EXCERPT_MIN). */
  pages: 14_000,
  pageTitle: 200,
  pageDescription: 300,
  pageHeadings: 600,
  /** Research and drafts: the index of the site's pages (URL and title), taken out of `pages`. */
  pageIndex: 2_500,
  /** Research and drafts: one chunk of a page, cut at its headings (a long section is cut again). */
  pageChunk: 1_500,
  /** The topic's brief; a hand-written brief is long at 2,000 characters. */
  topicBrief: 2_000,
  /** The published file a refresh starts from. */
  publishedArticle: 12_000,
  /** A refresh's search figures and queries. */
  searchPerformance: 1_500,
  companyFacts: 3_000,
  doRules: 2_000,
  dontRules: 2_500,
  /** The voice summary, the site's language, then example sentences. */
  voice: 3_000,
  voiceTraits: 600,
  /** The site's own text the brand voice is refined from, and each page's share of it. */
  voiceSample: 6_000,
  voiceSamplePerPage: 1_500,
  /** The research's points with their quoted passages, which the draft cites in its claims. */
  evidence: 4_000,
  /** Inkstream's published articles the draft may link to. */
  publishedArticles: 2_000,
  /** A revision's instruction (the API takes 4,000 characters; a PR comment with its file and line a little more). */
  revisionInstruction: 4_200,
  /** The article's outline a revision keeps to. */
  revisionOutline: 2_000,
  /** The pages most relevant to a revision's instruction. */
  revisionPages: 6_000,
  /**
   * The body a revision rewrites: sent whole or not at all (a cut body would come back cut). At
   * ~4 characters a token it fits MAX_OUTPUT_TOKENS.revision with room for the JSON around it.
   */
  revisionBody: 24_000,
  /** The published version's section headings a refresh's research plans from (its body goes to the draft step only). */
  publishedOutline: 1_500,
} as const;

/** The topic's brief section: a refresh carries its search figures and the published file in it. */
export const TOPIC_BRIEF_MAX =
  PROMPT_BUDGET.topicBrief + PROMPT_BUDGET.searchPerformance + PROMPT_BUDGET.publishedArticle + 400;

export const PAGE_EXCERPT_MIN = 400;

const cutMarker = (cut: number): string =>
  `[… ${cut.toLocaleString('en-US')} more characters cut to fit the prompt]`;

/**
 * The text whole when it fits; otherwise cut at the last paragraph end, else sentence end, else
 * word that fits, with a marker saying how much was left out (the model must not take a cut
 * passage for the whole). The result, marker included, is at most `maxChars` long.
 */
export function fitText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const room = Math.max(0, maxChars - cutMarker(text.length).length - 1);
  const head = text.slice(0, room);
  const ends = [/\n\s*\n/g, /[.!?…](?=\s)/g, /\s/g].map((boundary) => lastEnd(head, boundary));
  const boundary = ends.findIndex((end) => end >= room / 2);
  const kept = head.slice(0, boundary === -1 ? room : ends[boundary]).trimEnd();
  const joint = !kept || boundary === -1 ? '' : boundary === 0 ? '\n' : ' ';
  return `${kept}${joint}${cutMarker(text.length - kept.length)}`.slice(0, maxChars);
}

function lastEnd(text: string, boundary: RegExp): number {
  let end = -1;
  for (const match of text.matchAll(boundary))
    end = match.index + (match[0].trim() ? match[0].length : 0);
  return end;
}

/**
 * As many rendered items as fit, one a line, in the given order, then a line saying how many
 * were left out. An item too long on its own is cut with `fitText`.
 */
export function fitList<T>(
  items: readonly T[],
  maxChars: number,
  render: (item: T) => string,
): string {
  const lines: string[] = [];
  let used = 0;
  for (const [index, item] of items.entries()) {
    const left = items.length - index;
    const reserve = left > 1 ? `[… and ${left - 1} more not shown]`.length + 1 : 0;
    const line = fitText(render(item), Math.max(40, maxChars - used - reserve - 1));
    if (used + line.length + 1 + reserve > maxChars && lines.length > 0) {
      lines.push(`[… and ${left} more not shown]`);
      return lines.join('\n');
    }
    lines.push(line);
    used += line.length + 1;
  }
  return lines.join('\n');
}

/** How often each meaningful word occurs in the texts: what a set of pages or topics is about. */
export function focusOf(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const token of new Set(contentTokens(text)))
      counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/**
 * Items ordered by how much their words share with the focus (a word the focus repeats counts
 * more, but with diminishing weight); ties, and items sharing nothing, keep their given order.
 */
export function mostRelevantFirst<T>(
  items: readonly T[],
  focus: ReadonlyMap<string, number>,
  textOf: (item: T) => string,
): T[] {
  const score = (item: T): number =>
    [...new Set(contentTokens(textOf(item)))].reduce(
      (sum, token) => sum + Math.log1p(focus.get(token) ?? 0),
      0,
    );
  return items
    .map((item, index) => ({ item, index, score: score(item) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.item);
}
