/**
 * The second half of the fixture set: Sunhouse, a maker of home batteries whose products are named
 * with figures (Cell 5, Cell 10), whose pages state ranges and units ("2–4 kW", "between 4 and 8
 * kWh"), spell some figures out ("three to five hours") and make superlatives of their own ("our
 * biggest battery"). Correct texts quote and reword these the way a writer would and must pass; the
 * seeded faults change one figure, name or word and must be caught.
 */
import { researchOffline } from '../../../../../src/integrations/llm/offline/research.ts';
import { writeOffline } from '../../../../../src/integrations/llm/offline/write.ts';
import type { BrandInput, PageInput } from '../../../../../src/integrations/llm/writer.ts';
import type { CheckInput } from '../../../../../src/features/pipeline/writing/checks/index.ts';
import type { Fixture } from './draftFixtures.ts';

const ORIGIN = 'https://sunhouse.example';
const BLOG = `${ORIGIN}/blog/choosing-a-battery`;
const CELL_5 = `${ORIGIN}/products/cell-5`;
const CELL_10 = `${ORIGIN}/products/cell-10`;

export const SOLAR_PAGES: PageInput[] = [
  {
    url: `${ORIGIN}/`,
    title: 'Sunhouse | Home batteries made in Leeds',
    headings: ['Sunhouse home batteries'],
    text: [
      '# Sunhouse home batteries',
      'Sunhouse makes home batteries for solar panels, designed and assembled in Leeds.',
      'The Cell 5 and the Cell 10 are our two batteries. Houses with 2–4 kW of solar panels suit the Cell 5; larger roofs suit the Cell 10.',
      'Every Sunhouse battery comes with a 12-year warranty, the longest of any home battery sold in the UK.',
    ].join('\n\n'),
  },
  {
    url: CELL_5,
    title: 'Cell 5 | Sunhouse',
    headings: ['Cell 5'],
    text: [
      '# Cell 5',
      'The Cell 5 stores 5 kWh, enough for a typical evening of lights, cooking and television.',
      'It weighs 48 kg and hangs on a garage wall. The Cell 5 costs £2,400 installed.',
    ].join('\n\n'),
  },
  {
    url: CELL_10,
    title: 'Cell 10 | Sunhouse',
    headings: ['Cell 10'],
    text: [
      '# Cell 10',
      'The Cell 10 stores 10 kWh and is our biggest battery.',
      'Two Cell 10 units can be linked for 20 kWh. The Cell 10 costs £3,900 installed.',
    ].join('\n\n'),
  },
  {
    url: BLOG,
    title: 'How to choose a home battery | Sunhouse',
    headings: ['Size it to your evenings', 'Why bigger is not better'],
    text: [
      '## Size it to your evenings',
      'Choose the battery closest to your evening use, not the biggest one.',
      'Most homes use between 4 and 8 kWh after sunset. A battery charges fully in three to five hours of good sun.',
      '## Why bigger is not better',
      'A battery that never fills wastes money. In winter, panels make 70 per cent less power than in June.',
    ].join('\n\n'),
  },
];

const BRAND: BrandInput = {
  name: 'Sunhouse',
  voice: 'Plain and practical.',
  voiceTraits: ['practical'],
  companyFacts: [
    { kind: 'founded', value: '2014', sourceUrl: `${ORIGIN}/` },
    { kind: 'location', value: 'Leeds', sourceUrl: `${ORIGIN}/` },
    { kind: 'team', value: '40 people', sourceUrl: `${ORIGIN}/` },
  ],
  doDont: {
    do: ['Say what a battery does in a day'],
    dont: ['Never say "free energy".', 'No exclamation marks.'],
  },
};

const HEADINGS = [
  'How big a home battery you need',
  'What a home battery costs',
  'Charging a home battery in winter',
];
const OUTLINE = HEADINGS.map((heading) => ({ heading, points: ['x'] }));
const FILLER = 'Look at your meter and note when the house uses power. ';

/** A Sunhouse article of about `total` words with `extra` as its last paragraph. */
export function solarBody(
  options: { extra?: string; total?: number; headings?: string[] } = {},
): string {
  const headings = options.headings ?? HEADINGS;
  const per = Math.floor(((options.total ?? 860) - 10) / (headings.length + 1));
  const words = FILLER.repeat(Math.ceil(per / 10)).trim();
  return [
    `A home battery keeps the sun's power for the evening. ${words}`,
    ...headings.flatMap((heading) => ['', `## ${heading}`, '', words]),
    ...(options.extra ? ['', options.extra] : []),
    '',
  ].join('\n');
}

const SOLAR: Partial<CheckInput> = {
  body: solarBody(),
  title: 'Choosing a Home Battery',
  keyword: 'home battery',
  outline: OUTLINE,
  claims: [],
  pages: SOLAR_PAGES,
  companyFacts: BRAND.companyFacts,
  brand: BRAND,
};

const solar = (extra: string, more: Partial<CheckInput> = {}): Partial<CheckInput> => ({
  ...SOLAR,
  body: solarBody({ extra }),
  ...more,
});

/** The offline writer's brief on the topic, as it is recorded: `kind: brief`. */
export function solarBrief(): Partial<CheckInput> {
  const topic = {
    title: 'Choosing a home battery',
    keyword: 'home battery',
    brief: 'How to pick the Cell 5 or the Cell 10 for your evenings.',
  };
  const research = researchOffline({ topic, brand: BRAND, pages: SOLAR_PAGES });
  const draft = writeOffline({ topic, brand: BRAND, research, pages: SOLAR_PAGES });
  return {
    ...SOLAR,
    body: draft.body,
    title: draft.title,
    outline: research.outline,
    kind: 'brief',
  };
}

const quote = (text: string, title: string, url: string) => `- “${text}” ([${title}](${url}))`;

/** Correct texts: every check must pass. */
export const SOLAR_CORRECT: Fixture[] = [
  { name: 'solar: clean article', input: SOLAR, expected: {} },
  { name: "solar: the offline writer's brief", input: solarBrief(), expected: {} },
  {
    name: 'solar: a brief quoting the blog post word for word, with its link',
    input: {
      ...solarBrief(),
      body: `${solarBrief().body}\n${quote('Choose the battery closest to your evening use, not the biggest one.', 'How to choose a home battery', BLOG)}\n`,
    },
    expected: {},
  },
  {
    name: 'solar: a quoted passage with a figure, in a paragraph',
    input: solar(
      `The Sunhouse guide puts it plainly: “In winter, panels make 70 per cent less power than in June.”`,
    ),
    expected: {},
  },
  {
    name: 'solar: a verbatim quote in straight quotes with a link after it',
    input: solar(
      `"Most homes use between 4 and 8 kWh after sunset." ([How to choose a home battery](${BLOG}))`,
    ),
    expected: {},
  },
  {
    name: 'solar: a range with an en dash and a unit, as on the site',
    input: solar('Houses with 2–4 kW of solar panels suit the Cell 5.'),
    expected: {},
  },
  {
    name: 'solar: the same range with a hyphen and no space before the unit',
    input: solar('Houses with 2-4kW of panels suit the Cell 5.'),
    expected: {},
  },
  {
    name: 'solar: the range written "2 to 4 kW"',
    input: solar('A house with 2 to 4 kW of solar panels suits the Cell 5.'),
    expected: {},
  },
  {
    name: 'solar: "between 4 and 8" written as "4–8"',
    input: solar('Most homes use 4–8 kWh after sunset.'),
    expected: {},
  },
  {
    name: 'solar: product names with digits, in lower case',
    input: solar('Compare the cell 5 and the cell 10 before you choose.'),
    expected: {},
  },
  {
    name: 'solar: product names with digits, several in a sentence',
    input: solar('The Cell 5 suits a small roof, and the Cell 10 a large one.'),
    expected: {},
  },
  {
    name: 'solar: a product name and its capacity',
    input: solar('The Cell 5 stores 5 kWh.'),
    expected: {},
  },
  {
    name: 'solar: a superlative the site makes about its product',
    input: solar('The Cell 10 is the biggest battery Sunhouse makes.'),
    expected: {},
  },
  {
    name: 'solar: a superlative the site makes about its warranty',
    input: solar(
      'Every Sunhouse battery has a 12-year warranty, the longest of any home battery sold in the UK.',
    ),
    expected: {},
  },
  {
    name: 'solar: a price with a thousands separator, as on the site',
    input: solar('The Cell 5 costs £2,400 installed.'),
    expected: {},
  },
  {
    name: 'solar: the same price without the separator',
    input: solar('Installed, the Cell 5 costs £2400.'),
    expected: {},
  },
  {
    name: 'solar: figures the site spells out, written as digits',
    input: solar('A battery charges fully in 3–5 hours of good sun.'),
    expected: {},
  },
  {
    name: 'solar: "per cent" written as "%"',
    input: solar('In winter, panels make 70% less power than in June.'),
    expected: {},
  },
  {
    name: 'solar: a different case from the site',
    input: solar('the Cell 5 weighs 48 kg and hangs on a garage wall.'),
    expected: {},
  },
  {
    name: 'solar: a unit written without its space',
    input: solar('It weighs 48kg and hangs on a garage wall.'),
    expected: {},
  },
  {
    name: 'solar: a year from a company fact',
    input: solar('Sunhouse has assembled batteries in Leeds since 2014.'),
    expected: {},
  },
  {
    name: 'solar: a team size from a company fact',
    input: solar('Sunhouse is a team of 40 people.'),
    expected: {},
  },
  {
    name: 'solar: two linked units, worded as on the site',
    input: solar('Two Cell 10 units can be linked for 20 kWh.'),
    expected: {},
  },
  {
    name: 'solar: the idiom "make the most of"',
    input: solar('Make the most of a sunny afternoon by running the dishwasher.'),
    expected: {},
  },
  {
    name: 'solar: the idiom "at best"',
    input: solar('At best, an oversized battery sits half empty.'),
    expected: {},
  },
  {
    name: 'solar: the idiom "do your best"',
    input: solar('Do your best to run the washing machine while the sun shines.'),
    expected: {},
  },
  {
    name: 'solar: advice against a superlative, "not the biggest"',
    input: solar('Pick the battery that fits your evenings, not the biggest one on sale.'),
    expected: {},
  },
  {
    name: 'solar: "leading to" as a verb',
    input: solar('Short winter days mean less sun, leading to slower charging.'),
    expected: {},
  },
  {
    name: 'solar: a model claim quoting the product page',
    input: solar('The Cell 10 holds 10 kWh.', {
      claims: [
        {
          sentence: 'The Cell 10 holds 10 kWh.',
          url: CELL_10,
          quote: 'The Cell 10 stores 10 kWh and is our biggest battery.',
        },
      ],
    }),
    expected: {},
  },
  {
    name: 'solar: a model claim quoting a range the article rewrites',
    input: solar('Most homes use 4 to 8 kWh once the sun sets.', {
      claims: [
        {
          sentence: 'Most homes use 4 to 8 kWh once the sun sets.',
          url: BLOG,
          quote: 'Most homes use between 4 and 8 kWh after sunset.',
        },
      ],
    }),
    expected: {},
  },
  {
    name: 'solar: a price reworded',
    input: solar('Installed, the Cell 10 costs £3,900.'),
    expected: {},
  },
  {
    name: 'solar: a year and a product name in one sentence',
    input: solar('Since 2014, Sunhouse has built its batteries in Leeds.'),
    expected: {},
  },
  {
    name: 'solar: a sentence of the product page quoted inside a sentence',
    input: solar('The product page says “The Cell 10 stores 10 kWh and is our biggest battery.”'),
    expected: {},
  },
  {
    name: 'solar: a sentence of the home page word for word, semicolon and all',
    input: solar(
      'Houses with 2–4 kW of solar panels suit the Cell 5; larger roofs suit the Cell 10.',
    ),
    expected: {},
  },
  {
    name: 'solar: the warranty reworded',
    input: solar('A 12-year warranty comes with every Sunhouse battery.'),
    expected: {},
  },
  {
    name: 'solar: the winter figure in other words',
    input: solar('Panels make 70 per cent less power in winter than in June.'),
    expected: {},
  },
  {
    name: 'solar: a product name at the start of a sentence',
    input: solar('Cell 10 owners with large roofs rarely run out before bedtime.'),
    expected: {},
  },
];

/** Seeded faults: each changes one figure, name or word of a correct text. */
export const SOLAR_FAULTS: Fixture[] = [
  {
    name: 'solar fault: the wrong capacity for a product',
    input: solar('The Cell 5 stores 7 kWh.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a range the site does not give',
    input: solar('Houses with 2–6 kW of solar panels suit the Cell 5.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: the wrong price',
    input: solar('The Cell 10 costs £2,900 installed.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a superlative the site does not make',
    input: solar('The Cell 5 is the cheapest battery in the UK.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: an invented percentage',
    input: solar('A Sunhouse battery cuts your bills by 60%.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a longer warranty than the site gives',
    input: solar('Every Sunhouse battery comes with a 15-year warranty.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: the wrong founding year',
    input: solar('Sunhouse has built batteries since 2009.'),
    expected: { grounding: 'fail' },
  },
  {
    name: "solar fault: the negation of the site's superlative",
    input: solar('The Cell 10 is not our biggest battery.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a quote the blog post does not contain, with its link',
    input: solar(quote('Choose the biggest battery you can afford.', 'How to choose', BLOG)),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a product the site does not sell',
    input: solar('The Cell 20 stores 20 kWh.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a health claim',
    input: solar('A home battery strengthens your immune system.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a range changed',
    input: solar('Most homes use between 8 and 12 kWh after sunset.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a charging time the site does not give',
    input: solar('A battery charges fully in 2 hours of good sun.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: "most trusted" without a source',
    input: solar('Sunhouse is the most trusted battery maker in Britain.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: an invented payback period',
    input: solar('Nine in ten owners recover the cost within 8 years.'),
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a brief with an invented figure in a quote',
    input: {
      ...solarBrief(),
      body: `${solarBrief().body}\n${quote('The Cell 5 stores 9 kWh.', 'Cell 5', CELL_5)}\n`,
    },
    expected: { grounding: 'fail' },
  },
  {
    name: 'solar fault: a brief with a banned term',
    input: { ...solarBrief(), body: `${solarBrief().body}\nFree energy for every home.\n` },
    expected: { brandRules: 'fail' },
  },
  {
    name: 'solar fault: a term the brand bans',
    input: solar('A battery turns sunshine into free energy at night.'),
    expected: { brandRules: 'fail' },
  },
  {
    name: 'solar fault: an exclamation mark',
    input: solar('Charge your car tonight!'),
    expected: { brandRules: 'fail' },
  },
  {
    name: 'solar fault: a 100-word article',
    input: { ...SOLAR, body: solarBody({ total: 100 }) },
    expected: { length: 'fail' },
  },
  {
    name: 'solar fault: a title that lost the keyword',
    input: { ...SOLAR, title: 'Power After Sunset' },
    expected: { keyword: 'fail' },
  },
  {
    name: 'solar fault: most outline sections missing',
    input: {
      ...SOLAR,
      body: solarBody({ headings: ['How big a home battery you need', 'Our story', 'Contact'] }),
    },
    expected: { headings: 'fail' },
  },
  {
    name: 'solar fault: a cliché',
    input: solar('The Cell 5 fits into your evenings seamlessly.'),
    expected: { cliches: 'warn' },
  },
  {
    name: 'solar fault: an off-site link made plain text',
    input: solar('Read the review before you buy.', {
      removedLinks: [{ url: 'https://evil.example/review', text: 'the review' }],
    }),
    expected: { links: 'warn' },
  },
  {
    name: 'solar fault: code the safety gate kept as text',
    input: solar('Run \\{process.env.KEY\\} now.', {
      neutralised: [{ kind: 'expression', excerpt: '{process.env.KEY}', field: 'body' }],
    }),
    expected: { neutralised: 'warn' },
  },
];
