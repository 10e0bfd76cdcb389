import type { SitePageName } from '../../../../projections/sitePages.ts';
import type { CrawledPageSummary } from '../../../domain/projects/brand.ts';
import type { ActiveProject } from '../../../domain/projects/project.ts';
import type { Platform } from '../../../platform.ts';

/** Corpus pages added to a step's pages: with the brand sample, what a prompt's page budget holds. */
const EXTRA_PAGES = 6;
const EXTRA_PAGE_CHARS = 8_000;
const CANDIDATE_PASSAGES = 40;

type Subject = { title: string; keyword?: string | null };
const wordsOf = (subject: Subject) => `${subject.title} ${subject.keyword ?? ''}`;

/**
 * The project with the corpus pages most relevant to a subject added to its pages (the brand
 * crawl's sample): research and writing see them within their page budgets, evidence can quote
 * them, and grounding checks claims against them with its own rules.
 */
export function withCorpusPages(
  platform: Pick<Platform, 'siteCorpus'>,
  project: ActiveProject,
  subject: Subject,
): ActiveProject {
  const store = platform.siteCorpus();
  const known = new Set(project.pages.map((page) => page.url));
  const extra: CrawledPageSummary[] = [];
  for (const hit of store.search(project.id, wordsOf(subject), {
    limit: CANDIDATE_PASSAGES,
    anyWord: true,
  })) {
    if (extra.length >= EXTRA_PAGES) break;
    if (known.has(hit.url)) continue;
    known.add(hit.url);
    const text = store.pageText(project.id, hit.url);
    if (!text) continue;
    extra.push({
      url: hit.url,
      title: hit.page.title,
      description: hit.page.description ?? '',
      headings: hit.page.headings,
      text: text.slice(0, EXTRA_PAGE_CHARS),
    });
  }
  return extra.length === 0 ? project : { ...project, pages: [...project.pages, ...extra] };
}

/**
 * The corpus pages whose text shares words with a topic, by every name they go by (the title,
 * and the title with each heading), for the overlap rules. Full-text search picks the candidates,
 * so the comparison costs the same on a site of 20 pages or 5,000.
 */
export function corpusPageNames(
  platform: Pick<Platform, 'siteCorpus'>,
  projectId: string,
  subject: Subject,
): SitePageName[] {
  const names: SitePageName[] = [];
  const seen = new Set<string>();
  for (const hit of platform
    .siteCorpus()
    .search(projectId, wordsOf(subject), { limit: CANDIDATE_PASSAGES, anyWord: true })) {
    if (seen.has(hit.url)) continue;
    seen.add(hit.url);
    names.push({ url: hit.url, title: hit.page.title });
    for (const heading of hit.page.headings.slice(0, 12))
      names.push({ url: hit.url, title: hit.page.title, heading });
  }
  return names;
}
