import type { ActiveArticle } from '../../../domain/articles/article.ts';
import type { Claim, Evidence, QualityCheck } from '../../../domain/articles/quality.ts';
import type { ActiveProject } from '../../../domain/projects/project.ts';
import { mdxBodyOf, parseMdx } from '../../../mdx/mdx.ts';
import type { Neutralised } from '../../../mdx/neutralise.ts';
import { unlinkExcept, type RemovedLink, type UnlinkedText } from '../../../mdx/offSiteLinks.ts';
import { brandInputOf } from '../brand/brandInput.ts';
import { runChecks, TARGET_WORDS } from './checks/index.ts';
import { normalise } from './checks/bodyText.ts';
import { siteLinkPolicy } from './siteLinks.ts';

/** An inert body with every link that leads off the project's site made plain text. */
export const onSiteLinks = (body: string, project: ActiveProject): UnlinkedText =>
  unlinkExcept(body, siteLinkPolicy(project));

/**
 * The quality gate's verdicts on an article file as it will be recorded: offsets point into the
 * body GET /articles/:id shows (the file after its frontmatter).
 */
export function qualityChecks(input: {
  article: ActiveArticle;
  project: ActiveProject;
  mdx: string;
  title: string;
  claims: readonly Claim[];
  removedLinks: readonly RemovedLink[];
  neutralised: readonly Neutralised[];
}): QualityCheck[] {
  const brand = brandInputOf(input.project);
  return runChecks({
    body: mdxBodyOf(input.mdx),
    title: input.title,
    keyword: input.article.keyword,
    outline: input.article.outline,
    claims: input.claims,
    pages: input.project.pages,
    companyFacts: brand.companyFacts,
    brand,
    targetWords: TARGET_WORDS,
    removedLinks: input.removedLinks,
    neutralised: input.neutralised,
    ...(isBrief(input.mdx) ? { kind: 'brief' as const } : {}),
  });
}

function isBrief(mdx: string): boolean {
  try {
    return parseMdx(mdx).frontmatter.kind === 'brief';
  } catch {
    return false;
  }
}

/** How many claims or evidence items an event keeps, and how long each text may be: a model's answer must not grow the log without bound. */
const MAX_ITEMS = 60;
const MAX_TEXT = 1_000;
const cut = (text: string): string => text.slice(0, MAX_TEXT);

/** The draft's claims as recorded: at most MAX_ITEMS, each text cut to MAX_TEXT characters. */
export const recordedClaims = (claims: readonly Claim[]): Claim[] =>
  claims.slice(0, MAX_ITEMS).map((claim) => ({
    sentence: cut(claim.sentence),
    url: cut(claim.url),
    quote: cut(claim.quote),
  }));

/** The research's evidence whose passage really is on the page it names: only those reach the draft's prompt and the record. */
export function evidenceOnPages(
  evidence: readonly Evidence[],
  pages: ActiveProject['pages'],
): Evidence[] {
  const texts = new Map(pages.map((page) => [page.url, normalise(page.text)]));
  return evidence
    .filter((item) => {
      const quote = normalise(item.quote);
      return quote.length > 0 && (texts.get(item.url)?.includes(quote) ?? false);
    })
    .slice(0, MAX_ITEMS)
    .map((item) => ({ point: cut(item.point), url: item.url, quote: cut(item.quote) }));
}
