import type { components, operations } from '../api/v1.ts';

export type Brand = components['schemas']['Brand'];
export type BrandPart = Brand['editedParts'][number];
export type CompanyFact = Brand['companyFacts'][number];
export type CrawlChanges = components['schemas']['BrandCrawlChanges'];
export type BrandUpdate = operations['putProjectsIdBrand']['requestBody'] extends
  | { content: { 'application/json': infer Body } }
  | undefined
  ? Body
  : never;

export const PART_NAMES: Record<BrandPart | 'palette', string> = {
  voice: 'Voice',
  voiceTraits: 'Voice traits',
  doDont: "Do and don't",
  companyFacts: 'Company facts',
  coverStyle: 'Cover style',
  palette: 'Palette',
};
