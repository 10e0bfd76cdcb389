import { truncateAtWord } from './text.ts';
import type { BrandInput, ExistingTopic, PageInput } from './writer.ts';

/** The brand profile as the model reads it; every prompt carries it. */
export function brandBrief(brand: BrandInput): string {
  const list = (items: string[]): string => (items.length ? items.map((item) => `- ${item}`).join('\n') : '- (none given)');
  return [
    `Brand: ${brand.name}`,
    `Voice: ${brand.voice || '(not described)'}`,
    `Voice traits: ${brand.voiceTraits.join(', ') || '(none given)'}`,
    'Company facts (the only facts about the company you may state):',
    list(brand.companyFacts.map((fact) => `${fact.kind}: ${fact.value}${fact.sourceUrl ? ` (${fact.sourceUrl})` : ''}`)),
    'Do:',
    list(brand.doDont.do),
    "Don't (never break these):",
    list(brand.doDont.dont),
  ].join('\n');
}

/** The crawled pages, most relevant first, cut to fit a budget so a big site cannot blow the context. */
export function pagesDigest(pages: readonly PageInput[], budgetChars = 14_000): string {
  if (pages.length === 0) return '(no pages were crawled)';
  const perPage = Math.max(400, Math.floor(budgetChars / pages.length));
  const out: string[] = [];
  let used = 0;
  for (const page of pages) {
    const entry = [
      `URL: ${page.url}`,
      `Title: ${page.title}`,
      page.description ? `Description: ${page.description}` : '',
      page.headings.length ? `Headings: ${page.headings.slice(0, 12).join(' | ')}` : '',
      `Excerpt: ${truncateAtWord(page.text.replace(/\s+/g, ' ').trim(), perPage)}`,
    ].filter(Boolean).join('\n');
    if (used + entry.length > budgetChars && out.length > 0) break;
    out.push(entry);
    used += entry.length;
  }
  return out.join('\n\n');
}

export const existingTopicsList = (topics: readonly ExistingTopic[]): string =>
  topics.length ? topics.map((t) => `- ${t.title}${t.keyword ? ` (keyword: ${t.keyword})` : ''} [${t.status}]`).join('\n') : '(none yet)';

export const WRITER_SYSTEM = (brand: BrandInput): string => `You are the staff writer for ${brand.name}'s website. Write in the brand's voice and follow every "Do"; never do anything on the "Don't" list.
State only facts you are given (company facts and the site's pages); never invent statistics, customers, prices, quotes or sources.

${brandBrief(brand)}`;

export const MDX_RULES = `The body is MDX markdown: no frontmatter and no H1 (the title is stored separately); use ## and ### headings, short paragraphs, and lists where they help.
No JSX components, no raw HTML, no curly braces. Links are markdown links with the exact URLs given.`;
