import { describe, expect, test } from 'vitest';
import { extractCompanyFacts } from '../../../../../src/features/pipeline/brand/learn/brandFacts.ts';
import { crawledPage } from '../../../../support/crawledPage.ts';

const factsOf = (
  text: string,
  extra: Parameters<typeof crawledPage>[0] = { url: 'https://acme.test/about' },
) => extractCompanyFacts([crawledPage({ ...extra, text })]);

describe('founding year and place', () => {
  test.each([
    ['We were founded in 2011 in Portland, and we still bake there.', '2011', 'Portland'],
    ['Acme was founded in Portland, Oregon in 2011.', '2011', 'Portland, Oregon'],
    ['Established 1998. Headquartered in San Francisco.', '1998', 'San Francisco'],
    ['Serving gardeners since 2011. We are based in the heart of Berlin.', '2011', 'Berlin'],
    ['In 2015, two friends started Acme in a garage.', '2015', undefined],
    ['Started back in 2009 in Leeds by a couple of engineers.', '2009', 'Leeds'],
  ])('%s', (text, founded, location) => {
    const facts = factsOf(text);
    expect(facts.founded?.value).toBe(founded);
    expect(facts.founded?.sourceUrl).toBe('https://acme.test/about');
    expect(facts.location?.value).toBe(location);
  });

  test('a year with no founding word is not a founding year', () => {
    expect(
      factsOf('In 2020 prices went up. Our 2011 catalogue is online.').founded,
    ).toBeUndefined();
  });

  test('the footer counts too, and a month is not a place', () => {
    expect(
      factsOf('', { url: 'https://acme.test/', footerText: '© Acme Ltd. Based in Leeds, UK.' })
        .location?.value,
    ).toBe('Leeds, UK');
    expect(factsOf('Founded in March 2012.').location).toBeUndefined();
  });
});

test.each([
  ['We are a team of 40 designers.', '40'],
  ['Our 12-person team answers every email.', '12'],
  ['Today we employ over 1,200 people worldwide.', '1200'],
])('team size: %s', (text, team) => {
  expect(factsOf(text).team?.value).toBe(team);
});

test('a customer count is not a team size', () => {
  expect(factsOf('Over 10,000 people use Acme every day.').team).toBeUndefined();
});

test('the mission comes from "we help" and "our mission is to" sentences', () => {
  expect(factsOf('We help small shops sell online. Read more.').mission?.value).toBe(
    'We help small shops sell online',
  );
  expect(factsOf('Our mission is to make bread affordable.').mission?.value).toBe(
    'Our mission is to make bread affordable',
  );
});

test('proof points are numbers people would quote, not any number', () => {
  const facts = factsOf(
    [
      'Trusted by 500+ bakeries in 12 countries.',
      'We keep 99.9% uptime all year.',
      'Rated 4.8/5 stars by our customers.',
      'Over 2,000 customers switched last year.',
      'A good loaf takes 36 hours.',
      'Pick up your order at 7am.',
    ].join('\n'),
  );
  expect(facts.proofPoints.map((p) => p.value)).toEqual([
    'Trusted by 500+ bakeries in 12 countries.',
    'We keep 99.9% uptime all year.',
    'Rated 4.8/5 stars by our customers.',
    'Over 2,000 customers switched last year.',
  ]);
});

test('a claim in a fragment is no fact: only whole sentences are stated', () => {
  const facts = factsOf(
    [
      'Proof point: 10% to',
      'Save 20% on',
      '4.8/5 stars',
      'we give 5% of every order to food banks.',
      'Over 2,000 customers trust us.',
    ].join('\n'),
  );
  expect(facts.proofPoints.map((p) => p.value)).toEqual(['Over 2,000 customers trust us.']);
});

test('offers come from product pages and the navigation, with the product page as source', () => {
  const facts = extractCompanyFacts([
    crawledPage({
      url: 'https://acme.test/',
      navLinks: [
        { text: 'Payroll', url: 'https://acme.test/products/payroll' },
        { text: 'Blog', url: 'https://acme.test/blog' },
      ],
    }),
    crawledPage({
      url: 'https://acme.test/platform',
      headings: [
        { level: 1, text: 'Platform' },
        { level: 2, text: 'Bookkeeping' },
        { level: 2, text: 'Tax returns' },
      ],
    }),
  ]);
  expect(facts.offers).toEqual([
    { value: 'Bookkeeping', sourceUrl: 'https://acme.test/platform' },
    { value: 'Tax returns', sourceUrl: 'https://acme.test/platform' },
    { value: 'Payroll', sourceUrl: 'https://acme.test/products/payroll' },
  ]);
});

test('the company name is the part of the title that pages share when no site name is declared', () => {
  const facts = extractCompanyFacts([
    crawledPage({ url: 'https://acme.test/', title: 'Home – Acme Accounting' }),
    crawledPage({ url: 'https://acme.test/about', title: 'About us – Acme Accounting' }),
  ]);
  expect(facts.name).toEqual({ value: 'Acme Accounting', sourceUrl: 'https://acme.test/' });
});
