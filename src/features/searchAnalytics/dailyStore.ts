import type { CollectionSpec, ReadStore } from '../../readstore/port.ts';
import { collectionsDeclaredOnce } from '../../readstore/ensureOnce.ts';
import type { DailySeries } from '../../domain/decay/series.ts';
import type { DecayAssessment } from '../../domain/decay/rules.ts';
import type { RefreshOutcome } from '../../domain/decay/outcome.ts';

/**
 * Daily Search Console figures and the decay findings live beside the log, not in it (DESIGN.md
 * rule 13): a year of days per page and query is bulk that no replay should carry, and Google
 * can give it again (16 months back). A rebuild of the read models leaves these alone. See
 * docs/decay.md.
 *
 * - `search_daily`: one document per article (its days, and its queries' days), keyed by article.
 * - `search_daily_coverage`: per project, the property and the first and last day recorded.
 * - `decay_findings`: per article, the latest assessment, sorted per project by `rank`.
 * - `decay_projects`: per project, the last pass and the share of refreshes that helped.
 */
export const SEARCH_DAILY = 'search_daily';
export const SEARCH_DAILY_COVERAGE = 'search_daily_coverage';
export const DECAY_FINDINGS = 'decay_findings';
export const DECAY_PROJECTS = 'decay_projects';

export type SearchDailyDoc = {
  id: string;
  projectId: string;
  property: string;
  url: string;
  days: DailySeries;
  queries: Record<string, DailySeries>;
};

export type DailyCoverageDoc = {
  id: string;
  property: string;
  /** The first day recorded for this property; days before it are unknown, not zero. */
  from: string;
  through: string;
};

export type DecayFindingDoc = DecayAssessment & {
  id: string;
  projectId: string;
  accountId: string;
  title: string;
  property: string;
  assessedAt: string;
  /** Severity rank × 1000 + score: the list's order (highest first). */
  rank: number;
  /** The latest merged refresh, measured; null without one. */
  refresh: RefreshOutcome | null;
};

export type DecayProjectDoc = {
  id: string;
  assessedAt: string;
  end: string;
  articles: number;
  verdicts: Record<string, number>;
  refreshes: { better: number; unchanged: number; worse: number; waitingForData: number };
};

const COLLECTIONS: readonly CollectionSpec[] = [
  { name: SEARCH_DAILY, indexes: [] },
  { name: SEARCH_DAILY_COVERAGE, indexes: [] },
  { name: DECAY_FINDINGS, indexes: [{ projectId: 1, property: 1, rank: -1 }] },
  { name: DECAY_PROJECTS, indexes: [] },
];

export const ensureDecayCollections: (readStore: ReadStore) => Promise<void> =
  collectionsDeclaredOnce(COLLECTIONS);
