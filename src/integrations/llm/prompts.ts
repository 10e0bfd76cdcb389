import {
  fitList,
  fitText,
  mostRelevantFirst,
  PAGE_EXCERPT_MIN,
  PROMPT_BUDGET,
} from './promptBudget.ts';
import { PAGE_DATA_RULE, pageDataBlock } from './pageData.ts';
import type { BrandInput, ExistingTopic, PageInput } from './writer.ts';

/** The brand profile as the model reads it; every prompt carries it. */
export function brandBrief(brand: BrandInput): string {
  const list = (items: string[], budget: number): string =>
    items.length ? fitList(items, budget, (item) => `- ${item}`) : '- (none given)';
  return [
    `Brand: ${brand.name}`,
    `Voice: ${fitText(brand.voice, PROMPT_BUDGET.voice) || '(not described)'}`,
    `Voice traits: ${fitText(brand.voiceTraits.join(', '), PROMPT_BUDGET.voiceTraits) || '(none given)'}`,
    'Company facts (the only facts about the company you may state):',
    list(
      brand.companyFacts.map(
        (fact) => `${fact.kind}: ${fact.value}${fact.sourceUrl ? ` (${fact.sourceUrl})` : ''}`,
      ),
      PROMPT_BUDGET.companyFacts,
    ),
    'Do:',
    list(brand.doDont.do, PROMPT_BUDGET.doRules),
    "Don't (never break these):",
    list(brand.doDont.dont, PROMPT_BUDGET.dontRules),
  ].join('\n');
}

/**
 * The crawled pages in the given order (most relevant first), each field and the whole cut to
 * PROMPT_BUDGET, so a big site or a hostile page cannot blow the context. Each page is one block
 * of page data; its text keeps its headings, lists and tables.
 */
export function pagesDigest(
  pages: readonly PageInput[],
  budgetChars: number = PROMPT_BUDGET.pages,
): string {
  if (pages.length === 0) return '(no pages were crawled)';
  const perPage = Math.max(PAGE_EXCERPT_MIN, Math.floor(budgetChars / pages.length));
  const out: string[] = [];
  let used = 0;
  for (const page of pages) {
    const source = {
      url: fitText(page.url, PROMPT_BUDGET.pageTitle * 2),
      page: fitText(page.title, PROMPT_BUDGET.pageTitle),
    };
    const header = [
      page.description
        ? `Description: ${fitText(page.description, PROMPT_BUDGET.pageDescription)}`
        : '',
      page.headings.length
        ? `Headings: ${fitText(page.headings.slice(0, 12).join(' | '), PROMPT_BUDGET.pageHeadings)}`
        : '',
    ]
      .filter(Boolean)
      .join('\n');
    const excerptRoom = Math.min(
      perPage,
      budgetChars - used - header.length - source.url.length - source.page.length - 80,
    );
    if (excerptRoom < PAGE_EXCERPT_MIN && out.length > 0) break;
    const entry = pageDataBlock(
      source,
      `${header}\n\n${fitText(page.text.trim(), Math.max(PAGE_EXCERPT_MIN, excerptRoom))}`,
    );
    out.push(entry);
    used += entry.length + 2;
  }
  return out.join('\n\n');
}

const topicLine = (topic: ExistingTopic): string =>
  `- ${topic.title || topic.url}${topic.keyword ? ` (keyword: ${topic.keyword})` : ''} [${topic.status}]`;

/**
 * What a research run must not suggest again, most relevant to `focus` first (what the site is
 * about), cut to its budget. Every topic still takes part in the dedupe after the answer; the list
 * steers the model away from the ones it is most likely to repeat.
 */
export const existingTopicsList = (
  topics: readonly ExistingTopic[],
  focus: ReadonlyMap<string, number> = new Map(),
): string =>
  topics.length
    ? fitList(
        mostRelevantFirst(
          topics,
          focus,
          (topic) => `${topic.title || topic.url} ${topic.keyword ?? ''}`,
        ),
        PROMPT_BUDGET.existingTopics,
        topicLine,
      )
    : '(none yet)';

export const WRITER_SYSTEM = (
  brand: BrandInput,
): string => `You are the staff writer for ${brand.name}'s website. Write in the brand's voice and follow every "Do"; never do anything on the "Don't" list.
State only facts you are given (company facts and the site's pages); never invent statistics, customers, prices, quotes or sources.
${PAGE_DATA_RULE}

${brandBrief(brand)}`;

export const MDX_RULES = `The body is MDX markdown: no frontmatter and no H1 (the title is stored separately); use ## and ### headings, short paragraphs, and lists where they help.
No JSX components, no raw HTML, no curly braces. Links are markdown links with the exact URLs given.`;
