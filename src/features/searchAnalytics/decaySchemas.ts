import { z } from 'zod';
import type { DecayFindingDoc } from './dailyStore.ts';

/** The response shapes of decay findings (docs/decay.md): GET /projects/:id/decay and the article's `decay`. */

const Window = z
  .object({ start: z.string(), end: z.string() })
  .describe('Whole days (YYYY-MM-DD), both ends included');
const Clicks = z.object({ window: Window, clicks: z.number() });
const Severity = z.enum(['high', 'medium', 'low']);

const Signal = z
  .discriminatedUnion('rule', [
    z.object({
      rule: z.literal('clicks_below_best'),
      severity: Severity,
      current: Clicks,
      best: Clicks.describe('The best 28-day window since publication (before the current one)'),
      dropPercent: z.number(),
    }),
    z.object({
      rule: z.literal('clicks_below_last_year'),
      severity: Severity,
      current: Clicks,
      yearBefore: Clicks,
      dropPercent: z.number(),
    }),
    z.object({
      rule: z.literal('position_worsened'),
      severity: Severity,
      before: Window,
      now: Window,
      queries: z.array(
        z.object({
          query: z.string().describe('A search query as Google reports it: untrusted text'),
          before: z.number(),
          now: z.number(),
          places: z.number(),
        }),
      ),
    }),
    z.object({
      rule: z.literal('query_lost'),
      severity: Severity,
      before: Window,
      now: Window,
      queries: z.array(
        z.object({ query: z.string(), clicksBefore: z.number(), clicksNow: z.literal(0) }),
      ),
    }),
    z.object({
      rule: z.literal('dated_facts'),
      severity: Severity,
      ageMonths: z.number().int(),
      sentences: z.array(z.string()).describe("Sentences of the article's text, quoted"),
    }),
  ])
  .meta({ id: 'DecaySignal' });

export const RefreshOutcomeView = z
  .object({
    mergedAt: z.string(),
    outcome: z.enum(['better', 'unchanged', 'worse', 'waiting_for_data']),
    before: Clicks,
    after: Clicks.nullable().describe('null while waiting for data'),
    changePercent: z.number().nullable(),
  })
  .meta({ id: 'RefreshOutcome' });

export const DecayNote = z
  .object({
    verdict: z.enum(['decaying', 'steady', 'not_enough_history', 'too_small']),
    severity: z.enum(['high', 'medium', 'low', 'none']),
    signals: z.array(Signal),
    history: z.object({ from: z.string().nullable(), to: z.string(), days: z.number().int() }),
    assessedAt: z.string(),
  })
  .meta({ id: 'DecayNote' });

export const DecayFinding = z
  .object({
    articleId: z.string(),
    title: z.string(),
    verdict: z.enum(['decaying', 'steady', 'not_enough_history', 'too_small']),
    severity: z.enum(['high', 'medium', 'low', 'none']),
    signals: z.array(Signal),
    history: z.object({ from: z.string().nullable(), to: z.string(), days: z.number().int() }),
    current: Clicks,
    refresh: RefreshOutcomeView.nullable().describe(
      'The latest merged refresh: clicks of the 28 days before its merge against the 28 days after',
    ),
    assessedAt: z.string(),
  })
  .meta({ id: 'DecayFinding' });
export type DecayFindingView = z.infer<typeof DecayFinding>;

export const decayField = DecayFinding.nullable()
  .optional()
  .describe(
    'Present only when the project has a working search-analytics connection; null until a sync has judged the article',
  );

export function presentFinding(doc: DecayFindingDoc): DecayFindingView {
  const { id, title, verdict, severity, signals, history, current, refresh, assessedAt } = doc;
  return {
    articleId: id,
    title,
    verdict,
    severity,
    signals,
    history,
    current,
    refresh,
    assessedAt,
  };
}
