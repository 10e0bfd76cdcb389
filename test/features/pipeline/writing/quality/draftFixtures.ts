/**
 * The fixture set of the quality gate: bad and good drafts of a Fernleaf Tea article, each with the
 * verdict every check must reach (docs/content-quality.md). `checks.table.unit.test.ts` runs them.
 */
import type { CheckStatus, CheckName } from '../../../../../src/domain/articles/quality.ts';
import type { CheckInput } from '../../../../../src/features/pipeline/writing/checks/index.ts';
import { SOLAR_CORRECT, SOLAR_FAULTS } from './solarFixtures.ts';

const ORIGIN = 'https://fernleaf.example';
export const PAGES = [
  {
    url: `${ORIGIN}/`,
    text: 'Fernleaf Tea sells loose-leaf green and black teas from three family farms in Shizuoka. Every tin is packed within 30 days of the harvest.',
  },
  {
    url: `${ORIGIN}/about`,
    text: 'We started Fernleaf Tea in 2016 in Bristol. We never make health claims about tea. We describe how it tastes, where it grows and how to brew it.',
  },
  {
    url: `${ORIGIN}/blog/brewing-green-tea`,
    text: 'Brew green tea with water at 80°C for two to three minutes.\n\nWater that is too hot makes green tea bitter, so let the kettle rest first.',
  },
];
const OUTLINE = [
  { heading: 'Why green tea turns bitter', points: ['Water that is too hot'] },
  { heading: 'The right water temperature', points: ['80°C'] },
  { heading: 'How long to steep green tea', points: ['Two to three minutes'] },
];
const BRAND = {
  doDont: {
    do: ['Say how the tea tastes'],
    dont: ['Never make health claims about tea.', 'Never say "cheap".', 'No exclamation marks.'],
  },
  voiceTraits: ['calm'],
};

/** Neutral prose: no figure, superlative, health word, cliché or keyword, ten words a sentence. */
const FILLER = 'Warm the pot and taste the leaves as they open. ';
const words = (n: number) => FILLER.repeat(Math.ceil(n / 10)).trim();
const INTRO = 'Good green tea starts with patience at the kettle.';

/** A body of about `total` words: the intro and one section per heading. */
export function body(
  options: { intro?: string; headings?: string[]; total?: number; extra?: string } = {},
): string {
  const headings = options.headings ?? [
    'Why green tea turns bitter',
    'The right water temperature for green tea',
    'How long to steep green tea',
  ];
  const per = Math.floor(((options.total ?? 860) - 10) / (headings.length + 1));
  return [
    `${options.intro ?? INTRO} ${words(per)}`,
    ...headings.flatMap((heading) => ['', `## ${heading}`, '', words(per)]),
    ...(options.extra ? ['', options.extra] : []),
    '',
  ].join('\n');
}

export type Fixture = {
  name: string;
  input: Partial<CheckInput>;
  expected: Partial<Record<CheckName, CheckStatus>>;
};

export const BASE: CheckInput = {
  body: body(),
  title: 'How to Brew Green Tea',
  keyword: 'green tea',
  outline: OUTLINE,
  claims: [],
  pages: PAGES,
  companyFacts: [
    { kind: 'founded', value: '2016', sourceUrl: `${ORIGIN}/about` },
    { kind: 'location', value: 'Bristol', sourceUrl: `${ORIGIN}/about` },
  ],
  brand: BRAND,
  targetWords: 800,
  removedLinks: [],
  neutralised: [],
};

const BREW = 'Brew green tea with water at 80°C for two to three minutes.';
const INVENTED = 'A 2019 study found that 85% of tea drinkers sleep better.';
const at = (extra: string) => ({ body: body({ extra }) });

const TEA_FIXTURES: Fixture[] = [
  { name: 'clean draft', input: {}, expected: {} },
  {
    name: 'a figure with its quoted passage',
    input: {
      ...at(`Brew it right: ${BREW}`),
      claims: [{ sentence: BREW, url: `${ORIGIN}/blog/brewing-green-tea`, quote: BREW }],
    },
    expected: {},
  },
  { name: 'a figure the site states word for word, no claim given', input: at(BREW), expected: {} },
  {
    name: 'a year that is a company fact',
    input: at('Fernleaf Tea has packed its tins by hand since 2016.'),
    expected: {},
  },
  {
    name: 'a claim reworded a little from the one the model cited',
    input: {
      ...at('Brew your green tea with water at 80°C for two or three minutes.'),
      claims: [{ sentence: BREW, url: `${ORIGIN}/blog/brewing-green-tea`, quote: BREW }],
    },
    expected: {},
  },
  { name: 'invented figures, no source', input: at(INVENTED), expected: { grounding: 'fail' } },
  {
    name: 'invented figures, quoting a passage the page does not have',
    input: {
      ...at(INVENTED),
      claims: [
        {
          sentence: INVENTED,
          url: `${ORIGIN}/about`,
          quote: 'Studies show 85% of tea drinkers sleep better.',
        },
      ],
    },
    expected: { grounding: 'fail' },
  },
  {
    name: 'a real passage that does not carry the figure',
    input: {
      ...at(INVENTED),
      claims: [
        {
          sentence: INVENTED,
          url: `${ORIGIN}/blog/brewing-green-tea`,
          quote: 'Water that is too hot makes green tea bitter',
        },
      ],
    },
    expected: { grounding: 'fail' },
  },
  {
    name: 'a source that is not a page of the site',
    input: {
      ...at(INVENTED),
      claims: [{ sentence: INVENTED, url: 'https://evil.example/study', quote: INVENTED }],
    },
    expected: { grounding: 'fail' },
  },
  {
    name: "a health claim against the brand's rule",
    input: at('Fernleaf Tea cures anxiety.'),
    expected: { grounding: 'fail', brandRules: 'fail' },
  },
  {
    name: 'a health claim on a brand without a health rule',
    input: {
      ...at('A cup of green tea lowers blood pressure.'),
      brand: { doDont: { do: [], dont: [] }, voiceTraits: [] },
    },
    expected: { grounding: 'fail' },
  },
  {
    name: 'a superlative',
    input: at('Fernleaf sells the best green tea in Britain.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'a price',
    input: at('A tin costs £12 and lasts a month.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'a term the brand bans',
    input: at('Our leaves are never cheap.'),
    expected: { brandRules: 'fail' },
  },
  {
    name: 'an exclamation mark the brand does not use',
    input: at('Taste the difference!'),
    expected: { brandRules: 'fail' },
  },
  {
    name: 'a banned term in a heading',
    input: {
      body: body({
        headings: [
          'Why green tea turns bitter',
          'The right water temperature',
          'How long to steep green tea',
          'Cheap tins explained',
        ],
      }),
    },
    expected: { brandRules: 'fail' },
  },
  {
    name: 'a 90-word draft where 800 were asked',
    input: { body: body({ total: 90 }) },
    expected: { length: 'fail' },
  },
  { name: 'a 650-word draft', input: { body: body({ total: 650 }) }, expected: { length: 'warn' } },
  {
    name: 'a title that lost the keyword',
    input: { title: 'Tea for Busy Mornings' },
    expected: { keyword: 'fail' },
  },
  {
    name: 'an opening without the keyword',
    input: { body: body({ intro: 'Good tea starts with patience at the kettle.' }) },
    expected: { keyword: 'warn' },
  },
  {
    name: 'no heading with the keyword',
    input: {
      body: body({
        headings: ['Why the cup turns bitter', 'The right water temperature', 'How long to steep'],
      }),
      outline: [
        { heading: 'Why the cup turns bitter', points: ['x'] },
        { heading: 'The right water temperature', points: ['x'] },
        { heading: 'How long to steep', points: ['x'] },
      ],
    },
    expected: { keyword: 'warn' },
  },
  {
    name: 'one outline section without a heading',
    input: {
      body: body({
        headings: [
          'Why green tea turns bitter',
          'The right water temperature for green tea',
          'Storing your tins',
        ],
      }),
    },
    expected: { headings: 'warn' },
  },
  {
    name: 'most outline sections without a heading',
    input: {
      body: body({ headings: ['Why green tea turns bitter', 'Storing your tins', 'Our farms'] }),
    },
    expected: { headings: 'fail' },
  },
  {
    name: 'one cliché',
    input: at("In today's fast-paced world, a slow cup helps."),
    expected: { cliches: 'warn' },
  },
  {
    name: 'three clichés',
    input: at('This pot is a game-changer. Leverage the quiet morning. Look no further for calm.'),
    expected: { cliches: 'fail' },
  },
  {
    name: 'an off-site link made plain text',
    input: {
      ...at('Grab the deal before it ends.'),
      removedLinks: [{ url: 'https://evil.example/deal', text: 'the deal' }],
    },
    expected: { links: 'warn' },
  },
  {
    name: "a link to the site's own page",
    input: at(`Read the [brewing guide](${ORIGIN}/blog/brewing-green-tea).`),
    expected: {},
  },
  {
    name: 'code the safety gate kept as text',
    input: {
      ...at('Run \\{process.env.KEY\\} now.'),
      neutralised: [{ kind: 'expression', excerpt: '{process.env.KEY}', field: 'body' }],
    },
    expected: { neutralised: 'warn' },
  },
  {
    name: 'everything wrong at once',
    input: {
      title: 'Tea for Busy Mornings',
      body: `In today's fast-paced world, tea is a game-changer. ${INVENTED} Fernleaf Tea cures anxiety. Leverage the calm. Grab the deal now.\n`,
      removedLinks: [{ url: 'https://evil.example/deal', text: 'the deal' }],
    },
    expected: {
      grounding: 'fail',
      brandRules: 'fail',
      length: 'fail',
      keyword: 'fail',
      headings: 'fail',
      cliches: 'fail',
      links: 'warn',
    },
  },
];

/** More correct texts on the tea site: its figures quoted, reworded and spelt differently. */
const TEA_CORRECT: Fixture[] = [
  {
    name: 'figures the site spells out, written as a range of digits',
    input: at('Brew green tea at 80°C for 2–3 minutes.'),
    expected: {},
  },
  {
    name: 'a quoted sentence of the brewing guide inside a sentence',
    input: at(`The guide says: “${BREW}”`),
    expected: {},
  },
  {
    name: 'a figure of the home page, reworded',
    input: at('Fernleaf packs every tin within 30 days of the harvest.'),
    expected: {},
  },
  {
    name: 'a year of the About page, reworded',
    input: at('Fernleaf Tea was started in Bristol in 2016.'),
    expected: {},
  },
  {
    name: 'a temperature with a space before its unit',
    input: at('Brew green tea with water at 80 °C.'),
    expected: {},
  },
  {
    name: 'a sentence of the home page word for word',
    input: at('Every tin is packed within 30 days of the harvest.'),
    expected: {},
  },
  {
    name: 'a year and a place from the company facts',
    input: at('Fernleaf Tea, founded in 2016, is based in Bristol.'),
    expected: {},
  },
  {
    name: 'a temperature of the brewing guide, shortened',
    input: at('Brew green tea with water at 80°C.'),
    expected: {},
  },
  {
    name: 'advice of the brewing guide without a figure',
    input: at('Green tea turns bitter when the water is too hot.'),
    expected: {},
  },
];

/** More seeded faults on the tea site: one figure or word changed. */
const TEA_FAULTS: Fixture[] = [
  {
    name: 'a temperature the guide does not give',
    input: at('Brew green tea with water at 100°C for two to three minutes.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'a "leading" claim',
    input: at('Fernleaf is the leading tea shop in Bristol.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'a packing time changed',
    input: at('Every tin is packed within 10 days of the harvest.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'a founding year changed',
    input: at('Fernleaf Tea was started in Bristol in 2012.'),
    expected: { grounding: 'fail' },
  },
];

export const FIXTURES: Fixture[] = [
  ...TEA_FIXTURES,
  ...TEA_CORRECT,
  ...SOLAR_CORRECT,
  ...TEA_FAULTS,
  ...SOLAR_FAULTS,
];
