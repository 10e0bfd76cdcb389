import type { OutlineSection } from '../../../../domain/articles/article.ts';
import type { Claim } from '../../../../domain/articles/quality.ts';
import type { Neutralised } from '../../../../mdx/neutralise.ts';
import type { BrandInput, CompanyFact } from '../../../../integrations/llm/writer.ts';
import type { RemovedLink } from '../../../../mdx/offSiteLinks.ts';

/** The words an article is asked for (the writer's prompt says "at least"). */
export const TARGET_WORDS = 800;

/** Everything the checks read: the article as recorded, and what it was written from. */
export type CheckInput = {
  /** The article body as GET /articles/:id shows it: offsets in findings point into this. */
  body: string;
  title: string;
  keyword: string | null;
  outline: readonly OutlineSection[];
  claims: readonly Claim[];
  pages: ReadonlyArray<{ url: string; text: string; title?: string }>;
  companyFacts: readonly CompanyFact[];
  brand: Pick<BrandInput, 'doDont' | 'voiceTraits'>;
  targetWords: number;
  /** Links the writer made plain text because they led off the site. */
  removedLinks: readonly RemovedLink[];
  neutralised: readonly Neutralised[];
  /**
   * `brief`: the offline writer's material for an author (frontmatter `kind: brief`), not an
   * article: it is not held to an article's length, keyword placement or outline headings.
   */
  kind?: 'brief';
};
