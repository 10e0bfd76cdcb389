/**
 * A small fictional site (a loose-leaf tea shop) and its learned brand profile, shaped like the
 * writer's inputs. Reusable wherever a test needs realistic crawl output.
 */
import type { BrandInput, PageInput } from '../../src/integrations/llm/writer.ts';

export const fernleafBrand: BrandInput = {
  name: 'Fernleaf Tea',
  voice:
    'Warm, knowledgeable and unhurried. Explains the why behind every step without talking down to the reader.',
  voiceTraits: ['friendly', 'knowledgeable', 'calm'],
  companyFacts: [
    { kind: 'founded', value: '2014', sourceUrl: 'https://fernleaf.example/about' },
    { kind: 'location', value: 'Bristol, England', sourceUrl: 'https://fernleaf.example/about' },
    {
      kind: 'product',
      value: 'single-estate green tea and oolong',
      sourceUrl: 'https://fernleaf.example/shop/green-tea',
    },
    { kind: 'audience', value: 'home tea drinkers', sourceUrl: 'https://fernleaf.example/' },
  ],
  doDont: {
    do: ['Explain the reason behind each step', 'Use metric units'],
    dont: [
      'Avoid the words "synergy" and "revolutionary"',
      'No exclamation marks',
      'Never use "leverage"',
    ],
  },
};

export const fernleafPages: PageInput[] = [
  {
    url: 'https://fernleaf.example/',
    title: 'Fernleaf Tea | Single-estate loose-leaf tea',
    description: 'Loose-leaf green tea and oolong from single estates, shipped fresh from Bristol.',
    headings: ['Single-estate loose-leaf tea', 'Brewing guides', 'Why loose leaf'],
    text: 'Fernleaf Tea sources single-estate green tea and oolong directly from growers. Loose-leaf tea keeps its aroma longer than tea bags because the leaves stay whole. Our brewing guides show how water temperature and steeping time change the taste of green tea. Every order ships within two days from our Bristol warehouse.',
  },
  {
    url: 'https://fernleaf.example/guides/brewing-green-tea',
    title: 'How to brew green tea | Fernleaf Tea',
    description: 'Water temperature, leaf quantity and steeping time for green tea.',
    headings: [
      'Water temperature',
      'Steeping time',
      'How much leaf to use',
      'Re-steeping green tea',
    ],
    text: 'Green tea tastes bitter when the water is too hot. Water temperature between 70 and 80 degrees keeps green tea sweet and grassy. Steeping time matters as much as temperature: two minutes is a good start for most green tea. Use about three grams of leaf for every 200 millilitres of water. Good green tea can be re-steeped two or three times, and each infusion tastes a little different. Water temperature is the single most common reason green tea disappoints.',
  },
  {
    url: 'https://fernleaf.example/guides/water-temperature',
    title: 'Water temperature for tea | Fernleaf Tea',
    description: 'Why water temperature changes how tea tastes.',
    headings: ['Why water temperature matters', 'Temperatures by tea type'],
    text: 'Water temperature controls which compounds leave the leaf and how fast. Hot water pulls out tannins quickly, which is why green tea turns bitter at boiling point. Oolong tolerates hotter water, around 90 degrees. A kettle with temperature control makes water temperature easy to repeat.',
  },
  {
    url: 'https://fernleaf.example/shop/green-tea',
    title: 'Green tea | Fernleaf Tea shop',
    description: 'Single-estate green tea from Japan and China.',
    headings: ['Sencha', 'Dragon Well', 'Gyokuro'],
    text: 'Our green tea comes from single estates in Shizuoka and Hangzhou. Sencha is bright and grassy. Dragon Well green tea is nutty and smooth. Gyokuro is shaded before harvest, which gives it a sweet, savoury depth. Store green tea in an airtight tin away from light.',
  },
  {
    url: 'https://fernleaf.example/about',
    title: 'About us | Fernleaf Tea',
    description: 'A small tea company in Bristol since 2014.',
    headings: ['Our story', 'How we choose growers'],
    text: 'Fernleaf Tea started in 2014 in a Bristol kitchen. We visit the estates we buy from and pay growers above market price. We choose growers who pick by hand and process the leaf within hours of harvest.',
  },
];
