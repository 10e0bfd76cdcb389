import type { BrandProfile as LearnedBrand, SourcedFact } from './learn/brandProfile.ts';
import type { CrawledPage } from '../../../integrations/crawler/index.ts';
import type { z } from 'zod';
import {
  BrandProfile,
  pageTextLimit,
  type CompanyFact as CompanyFactSchema,
  type CoverStyle as CoverStyleSchema,
  type CrawledPageSummary,
} from '../../../domain/projects/brand.ts';

type CompanyFact = z.infer<typeof CompanyFactSchema>;
type CoverStyle = z.infer<typeof CoverStyleSchema>;

const cut = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

function facts(learned: LearnedBrand['companyFacts']): CompanyFact[] {
  const fact = (
    kind: CompanyFact['kind'],
    found: SourcedFact | undefined,
    value = found?.value,
  ): CompanyFact[] =>
    found && value
      ? [
          {
            kind,
            value: cut(value, 500),
            sourceUrl: found.sourceUrl ?? null,
            evidence: found.evidence ? cut(found.evidence, 600) : null,
          },
        ]
      : [];
  return [
    ...fact('name', learned.name),
    ...fact('founded', learned.founded),
    ...fact('location', learned.location),
    ...fact('team', learned.team),
    ...fact('mission', learned.mission),
    ...learned.offers.flatMap((offer) => fact('offer', offer)),
    ...learned.proofPoints.flatMap((proof) => fact('proof_point', proof)),
    // A customer's words are proof too; quoted so nobody reads them as the company's claim.
    ...learned.testimonials.flatMap((quote) =>
      fact('proof_point', quote, /^["“]/.test(quote.value) ? quote.value : `“${quote.value}”`),
    ),
  ].slice(0, 100);
}

/** The crawler's richer cover vocabulary folded into the public one the covers are drawn from. */
function coverStyle(learned: LearnedBrand['coverStyle']): CoverStyle {
  const family = learned.typography.genericFamily;
  const technical =
    family === 'monospace' && (learned.mood === 'minimal' || learned.mood === 'dark');
  const mood: CoverStyle['mood'] = technical
    ? 'technical'
    : learned.mood === 'minimal'
      ? 'calm'
      : learned.mood === 'dark'
        ? 'bold'
        : learned.mood;
  const shapes: CoverStyle['shapes'] =
    learned.shapes === 'rounded'
      ? 'circles'
      : learned.shapes === 'organic'
        ? 'waves'
        : mood === 'bold'
          ? 'blocks'
          : mood === 'technical'
            ? 'grid'
            : 'diagonal';
  const typography: CoverStyle['typography'] =
    family === 'serif' ? 'serif' : family === 'monospace' ? 'mono' : 'sans';
  return { mood, shapes, typography };
}

/** The learned profile in the public brand shape (what GET /projects/:id/brand returns); throws if it does not fit. */
export function toPublicBrand(learned: LearnedBrand): BrandProfile {
  return BrandProfile.parse({
    voice: {
      summary: cut(learned.voice.summary, 2000),
      person: learned.voice.person,
      formality: learned.voice.formality,
      avgSentenceWords: Math.min(200, learned.voice.avgSentenceWords),
      examples: learned.voice.examples.slice(0, 10).map((example) => cut(example, 500)),
      language: learned.voice.language ?? null,
    },
    voiceTraits: learned.voiceTraits.slice(0, 20).map((trait) => cut(trait, 80)),
    companyFacts: facts(learned.companyFacts),
    doDont: {
      do: learned.doDont.do.slice(0, 30).map((rule) => cut(rule, 300)),
      dont: learned.doDont.dont.slice(0, 30).map((rule) => cut(rule, 300)),
    },
    coverStyle: coverStyle(learned.coverStyle),
    palette: {
      colors: learned.palette.colors.slice(0, 24).map((color) => ({
        hex: color.hex,
        role: color.role ?? null,
        source: color.source,
        weight: color.weight,
      })),
      primary: learned.palette.primary,
      accent: learned.palette.accent,
      background: learned.palette.background,
      text: learned.palette.text,
    },
  });
}

/** What the pipeline keeps of each crawled page for research and internal links. */
export function pageSummaries(pages: readonly CrawledPage[]): CrawledPageSummary[] {
  const textLimit = pageTextLimit(pages.length);
  return pages.map((page) => ({
    url: page.url,
    title: cut(page.title, 300),
    description: cut(page.description ?? '', 500),
    headings: page.headings.slice(0, 30).map((heading) => cut(heading.text, 200)),
    text: cutMarkdown(page.markdown, textLimit),
  }));
}

/** Cut at the last block (blank line) that fits, so no heading, list or table row is left half. */
function cutMarkdown(markdown: string, max: number): string {
  if (markdown.length <= max) return markdown;
  const head = markdown.slice(0, max);
  const blockEnd = head.lastIndexOf('\n\n');
  return blockEnd >= max / 2 ? head.slice(0, blockEnd) : cut(markdown, max);
}
