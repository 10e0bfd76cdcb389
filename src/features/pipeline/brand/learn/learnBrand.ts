import { deriveCoverStyle } from './brandCover.ts';
import { extractCompanyFacts } from './brandFacts.ts';
import { guidelinesOf } from './brandGuidelines.ts';
import { buildPalette } from './brandPalette.ts';
import type { BrandProfile } from './brandProfile.ts';
import { proseSentences, stablePages } from './brandText.ts';
import {
  formalityOf,
  measureVoice,
  personOf,
  traitsOf,
  voiceExamples,
  voiceSummary,
} from './brandVoice.ts';
import { readCss } from './cssFacts.ts';
import type { CrawlResult } from '../../../../integrations/crawler/types.ts';

const mostCommon = (items: readonly string[]) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
};

/**
 * Learns a brand profile from crawled pages, without any model: the same pages always give the
 * same profile, whatever order they were crawled in. The offline mode uses it as is; the LLM mode
 * starts from it.
 */
export function learnBrand(crawl: Pick<CrawlResult, 'pages' | 'stylesheets'>): BrandProfile {
  const pages = stablePages(crawl.pages);
  const sentences = proseSentences(pages);
  const metrics = measureVoice(sentences);
  const person = personOf(metrics);
  const formality = formalityOf(metrics);
  const language = mostCommon(pages.flatMap((page) => (page.lang ? [page.lang] : [])));
  const companyFacts = extractCompanyFacts(pages);

  const stylesheets = [...crawl.stylesheets].sort((a, b) => (a.url < b.url ? -1 : 1));
  const css = readCss([
    ...stylesheets.map((sheet) => sheet.css),
    ...new Set(pages.map((page) => page.inlineCss)),
  ]);
  const palette = buildPalette({
    themeColors: pages.flatMap((page) => (page.themeColor ? [page.themeColor] : [])),
    css,
  });

  return {
    voice: {
      summary: voiceSummary(person, formality, metrics),
      person,
      formality,
      avgSentenceWords: metrics.avgSentenceWords,
      examples: voiceExamples(sentences, person),
      ...(language ? { language } : {}),
    },
    voiceTraits: traitsOf(metrics, person, formality),
    companyFacts,
    doDont: guidelinesOf({ metrics, person, formality, facts: companyFacts, language }),
    coverStyle: deriveCoverStyle({ palette, formality, css }),
    palette,
  };
}
