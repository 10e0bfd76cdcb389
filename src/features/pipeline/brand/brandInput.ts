import type { BrandInput, PageInput } from '../../../integrations/llm/writer.ts';
import type { BrandProfile, CrawledPageSummary } from '../../../domain/projects/brand.ts';
import { emptyBrand, type ActiveProject } from '../../../domain/projects/project.ts';

/** The brand's display name: the learned (or user-set) name fact, else the project's name. */
export function brandNameOf(project: ActiveProject): string {
  return project.brand?.companyFacts.find((fact) => fact.kind === 'name')?.value ?? project.name;
}

/** The project's brand profile as the content writer reads it. */
export function brandInputOf(project: ActiveProject): BrandInput {
  const brand: BrandProfile = project.brand ?? emptyBrand();
  const examples = brand.voice.examples.length
    ? ` Examples of the site's own sentences: ${brand.voice.examples.map((e) => `"${e}"`).join(' ')}`
    : '';
  const language = brand.voice.language
    ? ` The site is written in the language "${brand.voice.language}"; write in it.`
    : '';
  return {
    name: brandNameOf(project),
    // The language before the examples: if the voice section is cut to its prompt budget, the examples go first.
    voice: `${brand.voice.summary}${language}${examples}`.trim(),
    voiceTraits: brand.voiceTraits,
    // The name is given on its own; the other kinds read as words in the writer's sentences.
    companyFacts: brand.companyFacts
      .filter((fact) => fact.kind !== 'name')
      .map((fact) => ({
        kind:
          fact.kind === 'proof_point' ? 'proof point' : fact.kind === 'other' ? 'fact' : fact.kind,
        value: fact.value,
        ...(fact.sourceUrl ? { sourceUrl: fact.sourceUrl } : {}),
      })),
    doDont: brand.doDont,
  };
}

export const pageInputsOf = (pages: readonly CrawledPageSummary[]): PageInput[] =>
  pages.map((page) => ({
    url: page.url,
    title: page.title,
    description: page.description,
    headings: page.headings,
    text: page.text,
  }));
