import { z } from 'zod';

/** The thresholds of the decay rules (docs/decay.md), a project setting; every field has a default. */
export const DecaySettings = z
  .object({
    /** Traffic floor: a click drop counts only when the window it is compared with had this many clicks. */
    minClicks: z.number().int().min(1).max(100_000),
    /** Clicks of the last 28 days this far (percent) below the best 28-day window since publication. */
    bestDropPercent: z.number().int().min(1).max(100),
    /** Clicks of the last 28 days this far (percent) below the same 28 days a year before. */
    yearDropPercent: z.number().int().min(1).max(100),
    /** How many of the article's queries (most clicks in the 28 days before) the position rule looks at. */
    topQueries: z.number().int().min(1).max(20),
    /** Average position worse by more than this many places on one of those queries. */
    positionDrop: z.number().min(0.5).max(50),
    /** A query is judged only with this many impressions in both windows. */
    minQueryImpressions: z.number().int().min(1).max(100_000),
    /** A query that brought at least this many clicks in the 28 days before and none in the last 28 is lost. */
    lostQueryMinClicks: z.number().int().min(1).max(100_000),
    /** Dated facts (years, "latest", version numbers) count in an article older than this many months. */
    staleMonths: z.number().int().min(1).max(120),
  })
  .strict();
export type DecaySettings = z.infer<typeof DecaySettings>;

export const DEFAULT_DECAY_SETTINGS: DecaySettings = {
  minClicks: 30,
  bestDropPercent: 40,
  yearDropPercent: 40,
  topQueries: 5,
  positionDrop: 3,
  minQueryImpressions: 50,
  lostQueryMinClicks: 10,
  staleMonths: 12,
};

export const decaySettingsOf = (stored: Partial<DecaySettings> | undefined): DecaySettings => ({
  ...DEFAULT_DECAY_SETTINGS,
  ...stored,
});
