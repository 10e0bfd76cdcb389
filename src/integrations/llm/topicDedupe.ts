import { contentTokens, jaccard, stem } from './text.ts';
import type { ExistingTopic } from './writer.ts';

/** Words that frame a title without changing its subject ("A practical guide to …"). */
const FRAMING = new Set(['guide', 'practical', 'complete', 'ultimate', 'beginner', "beginner's", 'tip', 'checklist', 'common',
  'mistake', 'avoid', 'know', 'need', 'everything', 'introduction', 'explain', 'matter', 'step', 'best', 'essential', 'simple', 'quick'].map(stem));

type Comparable = { title: string; keyword?: string };

/** The stemmed words that carry a title's subject, framing words left out. */
export const subjectTokens = (text: string): Set<string> => new Set(contentTokens(text).filter((token) => !FRAMING.has(token)));
const normalized = (text: string): string => contentTokens(text).join(' ');

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

/**
 * Keeps candidates in order, dropping any that repeats an existing topic (whatever its status:
 * a rejected idea must not come back) or an earlier candidate; at most `limit` are returned.
 */
export function dedupeTopics<T extends Comparable>(candidates: readonly T[], existing: readonly ExistingTopic[], limit: number): T[] {
  const kept: T[] = [];
  for (const candidate of candidates) {
    if (kept.length >= limit) break;
    if (!candidate.title.trim()) continue;
    if (existing.some((topic) => isNearDuplicate(candidate, topic))) continue;
    if (kept.some((topic) => isNearDuplicate(candidate, topic))) continue;
    kept.push(candidate);
  }
  return kept;
}
