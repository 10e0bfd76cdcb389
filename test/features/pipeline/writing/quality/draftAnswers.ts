/** What a model answers for Fernleaf Tea: the bad answers the issue names, and a clean, grounded draft. */

export const RESEARCH = (origin: string) => ({
  outline: [
    { heading: 'Why green tea turns bitter', points: ['Water that is too hot'] },
    { heading: 'The right water temperature', points: ['80°C'] },
    { heading: 'How long to steep green tea', points: ['Two to three minutes'] },
  ],
  keyPoints: ['Let the kettle rest'],
  sources: [{ url: `${origin}/blog/brewing-green-tea`, title: 'Brewing green tea' }],
  evidence: [
    {
      point: 'Brew at 80°C',
      url: `${origin}/blog/brewing-green-tea`,
      quote: 'Brew green tea with water at 80°C for two to three minutes.',
    },
    {
      point: 'Studies show 85% of tea drinkers sleep better',
      url: `${origin}/about`,
      quote: 'Studies show 85% of tea drinkers sleep better.',
    },
  ],
});

export const INVENTED_FIGURES = 'A 2019 study found that 85% of tea drinkers sleep better.';
export const HEALTH_CLAIM = 'Fernleaf Tea cures anxiety.';

/** About 90 words where 800 were asked: invented figures, a health claim, clichés, an off-site link, and a title without the keyword. */
export const BAD_DRAFT = (origin: string) => ({
  title: 'Tea for Busy Mornings',
  description: 'Why a cup of tea is the best start to a busy morning, and how to make it.',
  body: [
    `In today's fast-paced world, tea is a game-changer. ${INVENTED_FIGURES} ${HEALTH_CLAIM}`,
    '',
    '## Morning ritual',
    '',
    'Leverage the quiet of the morning. Brew green tea with water at 80°C for two to three minutes.',
    'Grab [the deal](https://evil.example/deal) before it ends, or read [how we brew](' +
      origin +
      '/blog/brewing-green-tea).',
    '',
    'A cup before work sets a calm pace for the day ahead, and the ritual matters as much as the leaf.',
    '',
  ].join('\n'),
  tags: ['tea'],
  internalLinks: [],
  claims: [
    {
      sentence: INVENTED_FIGURES,
      url: `${origin}/about`,
      quote: 'Studies show 85% of tea drinkers sleep better.',
    },
    {
      sentence: 'Brew green tea with water at 80°C for two to three minutes.',
      url: `${origin}/blog/brewing-green-tea`,
      quote: 'Brew green tea with water at 80°C for two to three minutes.',
    },
  ],
});

const paragraph = (topic: string) =>
  `${topic} is where most cups of green tea go wrong, and it is easy to put right at home. ` +
  'Take your time with the kettle, warm the pot, and taste the tea as it steeps so you learn what you like. ' +
  'Loose leaves have room to open in a wide pot, and a second infusion often tastes sweeter than the first. ';

/** A clean draft: the keyword in the title, the opening and a heading; every figure quoted from the site; about 850 words. */
export const CLEAN_DRAFT = (origin: string) => ({
  title: 'How to Brew Green Tea Without Bitterness',
  description:
    'Water temperature and steeping time for green tea, from the Fernleaf Tea brewing guide.',
  body: [
    `Brewing green tea well comes down to two things: water temperature and time. ${paragraph('Temperature').repeat(3)}`,
    '',
    '## Why green tea turns bitter',
    '',
    `Water that is too hot makes green tea bitter, so let the kettle rest first. ${paragraph('Heat').repeat(4)}`,
    '',
    '## The right water temperature for green tea',
    '',
    `Brew green tea with water at 80°C for two to three minutes. ${paragraph('The kettle').repeat(4)}`,
    '',
    '## How long to steep green tea',
    '',
    `${paragraph('Timing').repeat(4)} Read the [brewing guide](${origin}/blog/brewing-green-tea) for more.`,
    '',
  ].join('\n'),
  tags: ['green tea', 'brewing'],
  internalLinks: [{ url: `${origin}/blog/brewing-green-tea`, anchor: 'brewing guide' }],
  claims: [
    {
      sentence: 'Brew green tea with water at 80°C for two to three minutes.',
      url: `${origin}/blog/brewing-green-tea`,
      quote: 'Brew green tea with water at 80°C for two to three minutes.',
    },
  ],
});
