import { contentTokens, jaccard, stem } from './text.ts';
import type { ExistingTopic } from './writer.ts';

/** Words that frame a title without changing its subject ("A practical guide to …"). */
const FRAMING = new Set(
  [
    'guide',
    'practical',
    'complete',
    'ultimate',
    'beginner',
    "beginner's",
    'tip',
    'checklist',
    'common',
    'mistake',
    'avoid',
    'know',
    'need',
    'everything',
    'introduction',
    'explain',
    'matter',
    'step',
    'best',
    'essential',
    'simple',
    'quick',
  ].map(stem),
);

type Comparable = { title: string; keyword?: string };

/**
 * Texts compared lately, with their tokens: a topic added by hand is compared with the names of up
 * to 200 published articles, the same names on every POST, and tokenising them again each time
 * was most of that request's cost. Bounded: started over past TEXTS_REMEMBERED texts.
 */
const TEXTS_REMEMBERED = 4_096;
const remembered = new Map<string, readonly string[]>();
function tokensOf(text: string): readonly string[] {
  let tokens = remembered.get(text);
  if (!tokens) {
    if (remembered.size >= TEXTS_REMEMBERED) remembered.clear();
    remembered.set(text, (tokens = contentTokens(text)));
  }
  return tokens;
}

/** The stemmed words that carry a title's subject, framing words left out. */
export const subjectTokens = (text: string): Set<string> =>
  new Set(tokensOf(text).filter((token) => !FRAMING.has(token)));
const normalized = (text: string): string => tokensOf(text).join(' ');

/**
 * Two topics are near-duplicates when their titles say the same thing (same subject words, give
 * or take framing and plurals) or they target the same keyword: two articles on one keyword
 * compete with each other in search.
 */
export function isNearDuplicate(a: Comparable, b: Comparable): boolean {
  if (normalized(a.title) === normalized(b.title)) return true;
  const keywordA = a.keyword ? subjectTokens(a.keyword) : undefined;
  const keywordB = b.keyword ? subjectTokens(b.keyword) : undefined;
  if (keywordA?.size && keywordB?.size && jaccard(keywordA, keywordB) >= 0.8) return true;
  const titleA = subjectTokens(a.title);
  const titleB = subjectTokens(b.title);
  if (titleA.size === 0 || titleB.size === 0) return false;
  return jaccard(titleA, titleB) >= 0.6;
}

/** A page the site already has (crawled, or an article Inkstream published): the names it goes by. */
export type SitePageName = { url: string; title: string; heading?: string };

/** "How to brew green tea | Fernleaf Tea" → "How to brew green tea": the site's name is not the page's subject. */
const pageTitleOf = (title: string): string => title.split(/\s+[|–—·]\s+|\s+-\s+/)[0] ?? title;

/** "/blog/brewing-green-tea.html" → "brewing green tea". */
function slugWords(url: string): string {
  // A path (an article's file in its repository) is no URL: asking first spares an error thrown on every comparison.
  const path = URL.canParse(url) ? new URL(url).pathname : url;
  const last = path.split('/').filter(Boolean).pop() ?? '';
  return decodeURIComponent(last)
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[-_+]+/g, ' ');
}

/**
 * Whether a topic would compete with a page the site already has: it says the same as the page's
 * title, first heading or URL (give or take framing words and plurals), or its subject is wholly
 * inside one of them ("Costing: a practical guide" against "Enterprise costing for mixed farms":
 * the broader article would chase the searches the page already answers).
 */
export function overlapsPage(topic: Comparable, page: SitePageName): boolean {
  return overlapsNames(topic, namesOf(page));
}

/** The names a page goes by: its title without the site's name, its first heading, its URL's last words. */
const namesOf = (page: SitePageName): string[] =>
  [pageTitleOf(page.title), page.heading ?? '', slugWords(page.url)].filter((name) => name.trim());

function overlapsNames(topic: Comparable, names: readonly string[]): boolean {
  const subject = subjectTokens(topic.title);
  return names.some((name) => {
    if (isNearDuplicate(topic, { title: name, keyword: name })) return true;
    const other = subjectTokens(name);
    return subject.size > 0 && other.size > 0 && [...subject].every((token) => other.has(token));
  });
}

/** The first page the topic overlaps, or null. */
export const overlappingPage = <P extends SitePageName>(
  topic: Comparable,
  pages: readonly P[],
): P | null => pages.find((page) => overlapsPage(topic, page)) ?? null;

/** Pages with their names worked out once, and found by the words of those names. */
export type PageIndex<P extends SitePageName> = {
  pages: readonly { page: P; names: readonly string[] }[];
  byToken: ReadonlyMap<string, readonly number[]>;
};

export function indexPages<P extends SitePageName>(pages: readonly P[]): PageIndex<P> {
  const byToken = new Map<string, number[]>();
  const named = pages.map((page, i) => {
    const names = namesOf(page);
    for (const token of new Set(names.flatMap(tokensOf))) {
      const list = byToken.get(token);
      if (list) list.push(i);
      else byToken.set(token, [i]);
    }
    return { page, names };
  });
  return { pages: named, byToken };
}

/**
 * overlappingPage over indexed pages, comparing the topic only with the pages that share a word
 * with it: every way of overlapping needs one (the same words, a shared keyword or subject word),
 * except a title with no words of its own, which is compared with every page.
 */
export function overlappingIndexedPage<P extends SitePageName>(
  topic: Comparable,
  index: PageIndex<P>,
): P | null {
  const titleTokens = tokensOf(topic.title);
  let candidates: number[];
  if (titleTokens.length === 0) candidates = index.pages.map((_, i) => i);
  else {
    const shared = new Set<number>();
    for (const token of [...titleTokens, ...(topic.keyword ? tokensOf(topic.keyword) : [])])
      for (const i of index.byToken.get(token) ?? []) shared.add(i);
    candidates = [...shared].sort((a, b) => a - b);
  }
  for (const i of candidates)
    if (overlapsNames(topic, index.pages[i].names)) return index.pages[i].page;
  return null;
}

/**
 * Keeps candidates in order, dropping any that repeats an existing topic (whatever its status:
 * a rejected idea must not come back), overlaps a page of the site or a published article (those
 * carry a `url`), or repeats an earlier candidate; at most `limit` are returned.
 */
export function dedupeTopics<T extends Comparable>(
  candidates: readonly T[],
  existing: readonly ExistingTopic[],
  limit: number,
): T[] {
  const kept: T[] = [];
  for (const candidate of candidates) {
    if (kept.length >= limit) break;
    if (!candidate.title.trim()) continue;
    if (
      existing.some((topic) =>
        topic.url
          ? overlapsPage(candidate, { ...topic, url: topic.url })
          : isNearDuplicate(candidate, topic),
      )
    )
      continue;
    if (kept.some((topic) => isNearDuplicate(candidate, topic))) continue;
    kept.push(candidate);
  }
  return kept;
}
