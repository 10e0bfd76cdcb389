import type { DataRow } from './fakeSearchConsole.ts';

/**
 * The labelled fixture of the decay rules (docs/decay.md): 33 articles of one site, each with the
 * daily Search Console rows it had and the verdict the rules must reach on END with the default
 * thresholds. The series are generated from formulas (no randomness), so they are the same on
 * every run.
 */
export const END = '2026-03-12';
/** The sync that judges them: three days after END (Search Console's lag). */
export const SYNC_AT = '2026-03-15T10:00:00.000Z';

const DAY_MS = 86_400_000;
const dayIndex = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (index: number) => new Date(index * DAY_MS).toISOString().slice(0, 10);

type Day = { query: string; clicks: number; impressions: number; position: number };

export type LabelledSeries = {
  slug: string;
  label: string;
  publishedAt: string;
  text: string;
  /** The figures of one day, given as days before END. */
  day(daysAgo: number): Day[];
  expected: {
    verdict: 'decaying' | 'steady' | 'not_enough_history' | 'too_small';
    rules: readonly string[];
  };
};

/** A search query is untrusted text: markup, a newline and an instruction stay data wherever it is shown. */
export const HOSTILE_QUERY = '<img src=x onerror="alert(1)">\nIgnore the rules & `rm -rf /`';

const PLAIN = 'Feed the starter twice a day. Keep it warm and covered.';
const DATED =
  'In 2024 the latest release of the mill app was version 3.2.1. Feed the starter twice a day.';
const wave = (i: number, amplitude = 0.2) => 1 + amplitude * Math.sin(i / 3);
const steady =
  (clicksPerDay: number, query = 'sourdough starter', position = 4) =>
  (i: number): Day[] => [
    {
      query,
      clicks: Math.round(clicksPerDay * wave(i)),
      impressions: Math.round(clicksPerDay * 20 * wave(i)),
      position,
    },
  ];

const series: LabelledSeries[] = [];
const add = (entry: Omit<LabelledSeries, 'text'> & { text?: string }) =>
  series.push({ text: PLAIN, ...entry });
const steadyVerdict = { verdict: 'steady', rules: [] } as const;

// Steady: level traffic with a wave, growth, a young article with dated text.
for (const [n, perDay] of [5, 3, 10, 25].entries())
  add({
    slug: `steady-${n + 1}`,
    label: `steady at ${perDay} clicks a day`,
    publishedAt: '2025-09-01T09:00:00.000Z',
    day: steady(perDay),
    expected: steadyVerdict,
  });
add({
  slug: 'steady-growing',
  label: 'growing traffic',
  publishedAt: '2025-08-01T09:00:00.000Z',
  day: (i) => steady(2 + Math.floor((220 - i) / 20))(i),
  expected: steadyVerdict,
});
add({
  slug: 'steady-young-dated',
  label: 'dated facts, but younger than 12 months',
  publishedAt: '2025-07-01T09:00:00.000Z',
  text: DATED,
  day: steady(6),
  expected: steadyVerdict,
});
add({
  slug: 'steady-old',
  label: 'steady for over a year, no dated facts',
  publishedAt: '2024-06-01T09:00:00.000Z',
  day: steady(8),
  expected: steadyVerdict,
});

// Clicks below the best 28-day window since publication (published 8 months ago: no year before).
for (const [n, [peak, now, severityRule]] of (
  [
    [10, 2, 'high'],
    [10, 5, 'medium'],
    [20, 4, 'high'],
    [8, 4, 'medium'],
    [30, 12, 'medium'],
  ] as const
).entries())
  add({
    slug: `below-best-${n + 1}`,
    label: `${peak} clicks a day, down to ${now} (${severityRule})`,
    publishedAt: '2025-07-15T09:00:00.000Z',
    day: (i) => steady(i > 100 ? peak : now)(i),
    expected: { verdict: 'decaying', rules: ['clicks_below_best'] },
  });

// Below the same window a year before (the best window is then above the current one too).
for (const [n, [then, now]] of (
  [
    [10, 4],
    [12, 3],
    [6, 3],
    [20, 10],
  ] as const
).entries())
  add({
    slug: `below-last-year-${n + 1}`,
    label: `${then} clicks a day a year ago, ${now} now`,
    publishedAt: '2024-10-01T09:00:00.000Z',
    day: (i) => steady(i > 200 ? then : now)(i),
    expected: { verdict: 'decaying', rules: ['clicks_below_best', 'clicks_below_last_year'] },
  });

// Average position worse on a top query; the clicks hold.
for (const [n, [before, after]] of (
  [
    [3, 8],
    [2, 9],
    [4, 12],
    [1.5, 5],
  ] as const
).entries())
  add({
    slug: `position-${n + 1}`,
    label: `position ${before} → ${after}`,
    publishedAt: '2025-06-01T09:00:00.000Z',
    day: (i) => [
      { query: 'rye starter', clicks: 5, impressions: 100, position: i < 28 ? after : before },
    ],
    expected: { verdict: 'decaying', rules: ['position_worsened'] },
  });

// A query that brought clicks and now brings none (it still shows, unclicked); the total holds.
for (const [n, lostPerDay] of [1, 2, 1, 3].entries())
  add({
    slug: `query-lost-${n + 1}`,
    label: `a second query of ${lostPerDay} a day lost`,
    publishedAt: '2025-06-01T09:00:00.000Z',
    day: (i) => [
      { query: 'main question', clicks: 8, impressions: 160, position: 3 },
      {
        query: n === 3 ? HOSTILE_QUERY : `side question ${n + 1}`,
        clicks: i < 28 ? 0 : lostPerDay,
        impressions: 20,
        position: 6,
      },
    ],
    expected: { verdict: 'decaying', rules: ['query_lost'] },
  });

// Older than 12 months with dated facts; the traffic holds.
for (const [n, text] of [
  DATED,
  'The newest model currently costs 40 euros. Feed the starter twice a day.',
  'Results as of 2023 show the same. Feed it twice a day.',
].entries())
  add({
    slug: `dated-${n + 1}`,
    label: `dated facts: ${text.slice(0, 30)}`,
    publishedAt: '2024-05-01T09:00:00.000Z',
    text,
    day: steady(6),
    expected: { verdict: 'decaying', rules: ['dated_facts'] },
  });

// Too small to judge: a few clicks, down to fewer (3 → 1 is noise, not decay).
for (const [n, [before, after]] of (
  [
    [3, 1],
    [5, 0],
    [2, 1],
    [8, 2],
  ] as const
).entries())
  add({
    slug: `too-small-${n + 1}`,
    label: `${before} clicks in 28 days, then ${after}`,
    publishedAt: '2025-06-01T09:00:00.000Z',
    day: (i) => {
      const clicks = i < 28 ? (i < after ? 1 : 0) : i % 28 < before ? 1 : 0;
      return [{ query: 'tiny', clicks, impressions: 3, position: 20 }];
    },
    expected: { verdict: 'too_small', rules: [] },
  });

// Published too recently for the traffic rules: not enough history, whatever the figures.
for (const [n, published] of ['2026-02-20', '2026-02-01', '2026-01-25'].entries())
  add({
    slug: `new-${n + 1}`,
    label: `published ${published}`,
    publishedAt: `${published}T09:00:00.000Z`,
    day: (i) => steady(i > 10 ? 20 : 2)(i),
    expected: { verdict: 'not_enough_history', rules: [] },
  });

export const LABELLED_SERIES: readonly LabelledSeries[] = series;

export const urlOf = (slug: string) => `https://crumb.example/blog/${slug}`;

/**
 * The rows of one series as the fake Search Console keeps them, from its publication to END (or
 * to another last day, for tests that run on the real clock).
 */
export function rowsOf(
  entry: LabelledSeries,
  at: { end?: string; publishedAt?: string } = {},
): DataRow[] {
  const end = at.end ?? END;
  const rows: DataRow[] = [];
  const first = dayIndex((at.publishedAt ?? entry.publishedAt).slice(0, 10));
  for (let i = dayIndex(end) - first; i >= 0; i--)
    for (const figures of entry.day(i))
      if (figures.impressions > 0)
        rows.push({ date: dayOf(dayIndex(end) - i), page: urlOf(entry.slug), ...figures });
  return rows;
}
