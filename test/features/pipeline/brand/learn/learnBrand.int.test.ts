import { afterAll, beforeAll, expect, test } from 'vitest';
import fc from 'fast-check';
import { crawlSite, type CrawlResult } from '../../../../../src/integrations/crawler/index.ts';
import { brandProfileSchema } from '../../../../../src/features/pipeline/brand/learn/brandProfile.ts';
import { learnBrand } from '../../../../../src/features/pipeline/brand/learn/learnBrand.ts';
import { createSafeHttpClient } from '../../../../../src/integrations/safeHttp/index.ts';
import { startTestSite, type TestSite } from '../../../../support/testSite.ts';

let site: TestSite;
let crawl: CrawlResult;
beforeAll(async () => {
  site = await startTestSite();
  const http = createSafeHttpClient({ allowPrivateAddresses: true });
  crawl = await crawlSite({ websiteUrl: site.origin }, http);
  await http.close();
});
afterAll(() => site.close());

test('the company facts of the test site, each with the page it came from', () => {
  const { companyFacts } = learnBrand(crawl);
  expect(companyFacts.founded).toMatchObject({ value: '2011', sourceUrl: site.url('/about') });
  expect(companyFacts.location).toMatchObject({ value: 'Portland', sourceUrl: site.url('/about') });
  expect(companyFacts.founded?.evidence).toContain('founded in 2011 in Portland');
  expect(companyFacts.team).toMatchObject({ value: '40', sourceUrl: site.url('/about') });
  expect(companyFacts.name).toMatchObject({ value: 'Crumb & Co.' });
  expect(companyFacts.mission?.value).toBe(
    'We help independent bakeries take orders online without hiring a developer',
  );
  expect(companyFacts.offers).toEqual([
    { value: 'Inventory', sourceUrl: site.url('/products/inventory') },
    { value: 'Online Ordering', sourceUrl: site.url('/products/online-ordering') },
  ]);
  expect(companyFacts.proofPoints).toContainEqual(
    expect.objectContaining({
      value: expect.stringMatching(/^[A-Z].*500\+ bakeries in 12 countries.*\.$/),
      sourceUrl: site.url('/'),
    }),
  );
  expect(companyFacts.testimonials[0].value).toMatch(/Sunday mornings back/);
});

test('the palette keeps the theme-color and --primary, and a readable text colour', () => {
  const { palette } = learnBrand(crawl);
  expect(palette.colors).toContainEqual(
    expect.objectContaining({ hex: '#1b998b', source: 'theme-color' }),
  );
  expect(palette.colors).toContainEqual(
    expect.objectContaining({
      hex: '#e4572e',
      source: 'css-variable',
      variable: '--primary',
      role: 'primary',
    }),
  );
  expect(palette).toMatchObject({
    primary: '#e4572e',
    accent: '#f3a712',
    background: '#fffdf8',
    text: '#2b2d42',
  });
});

test('voice, guidelines and cover style follow what the site does', () => {
  const brand = learnBrand(crawl);
  expect(brand.voice).toMatchObject({ person: 'second', formality: 'casual', language: 'en-US' });
  expect(brand.voice.avgSentenceWords).toBeGreaterThan(6);
  expect(brand.voice.avgSentenceWords).toBeLessThan(16);
  expect(brand.voice.examples.length).toBeGreaterThan(0);
  expect(brand.voiceTraits).toContain('direct');
  expect(brand.doDont.do).toContain('Address the reader as "you".');
  expect(brand.coverStyle).toMatchObject({
    typography: { headingFont: 'Fraunces', bodyFont: 'Inter', genericFamily: 'serif' },
    background: 'gradient',
  });
});

test('the profile matches the published schema and does not depend on crawl order', () => {
  const brand = learnBrand(crawl);
  expect(brandProfileSchema.parse(brand)).toEqual(brand);
  fc.assert(
    fc.property(fc.shuffledSubarray(crawl.pages, { minLength: crawl.pages.length }), (pages) => {
      expect(learnBrand({ ...crawl, pages })).toEqual(brand);
    }),
    { numRuns: 20 },
  );
});

test('a crawl with no pages still gives a valid, empty-handed profile', () => {
  const brand = learnBrand({ pages: [], stylesheets: [] });
  expect(brandProfileSchema.safeParse(brand).success).toBe(true);
  expect(brand.companyFacts).toEqual({ offers: [], proofPoints: [], testimonials: [] });
});
