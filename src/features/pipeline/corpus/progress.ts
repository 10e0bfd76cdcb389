import { z } from 'zod';
import type { CorpusRun } from '../../../integrations/siteCorpus/port.ts';

export const CorpusProgress = z
  .object({
    runId: z.string(),
    status: z.enum(['running', 'done']),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    pagesKnown: z
      .number()
      .int()
      .describe('URLs the corpus knows (sitemaps and links), within crawl.maxPages'),
    pagesRead: z.number().int().describe('Pages read in full by this run'),
    skippedUnchanged: z
      .number()
      .int()
      .describe(
        'Pages not read again: 304 Not Modified, an unmoved sitemap lastmod, or the same text',
      ),
    failed: z.number().int(),
    skipped: z.number().int().describe('URLs not read: robots.txt, not HTML, another site'),
    queued: z.number().int(),
    estimatedCompletionAt: z
      .string()
      .nullable()
      .describe(
        'When the run should finish at its pace so far; null when done or too early to say',
      ),
    notes: z
      .array(z.string())
      .describe('Bounds the crawl met (page cap, crawler traps, big sitemaps), in words'),
  })
  .meta({ id: 'CorpusProgress' });
export type CorpusProgress = z.infer<typeof CorpusProgress>;

/** A run's counts and an estimate of its end from its pace so far. */
export function corpusProgress(run: CorpusRun, nowMs: number): CorpusProgress {
  const { counts } = run;
  const done = counts.read + counts.unchanged + counts.failed + counts.skipped;
  const elapsed = nowMs - Date.parse(run.startedAt);
  const estimate =
    run.status === 'running' && done >= 5 && elapsed > 0
      ? new Date(nowMs + Math.round((counts.queued * elapsed) / done)).toISOString()
      : null;
  return {
    runId: run.runId,
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    pagesKnown: counts.known,
    pagesRead: counts.read,
    skippedUnchanged: counts.unchanged,
    failed: counts.failed,
    skipped: counts.skipped,
    queued: counts.queued,
    estimatedCompletionAt: estimate,
    notes: run.notes,
  };
}
