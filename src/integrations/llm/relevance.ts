import { subjectTokens } from './topicDedupe.ts';
import { contentTokens } from './text.ts';
import type { PageInput, TopicInput } from './writer.ts';

/** The words a topic is about, for matching it to pages. */
export const topicTokensOf = (topic: TopicInput): Set<string> =>
  subjectTokens(`${topic.title} ${topic.keyword}`);

/** How strongly a page is about the given words; 0 when not at all. */
export function relevance(page: PageInput, topicTokens: ReadonlySet<string>): number {
  if (topicTokens.size === 0) return 0;
  const count = (text: string): number =>
    contentTokens(text).filter((token) => topicTokens.has(token)).length;
  const inText = count(page.text);
  return (
    count(page.title) * 4 +
    count(page.description ?? '') * 2 +
    page.headings.reduce((sum, h) => sum + count(h) * 2, 0) +
    Math.sqrt(inText)
  );
}

export function rankPages(
  pages: readonly PageInput[],
  topicTokens: ReadonlySet<string>,
): PageInput[] {
  return pages
    .map((page) => ({ page, score: relevance(page, topicTokens) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.page.url.localeCompare(b.page.url))
    .map((entry) => entry.page);
}
