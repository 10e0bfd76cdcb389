import { z } from 'zod';

/** The shapes asked of the model; strict-mode compatible (every field required, no extras). */

export const TopicsAnswer = z.object({
  topics: z
    .array(
      z.object({
        title: z.string().min(3).max(160),
        keyword: z.string().min(2).max(80),
        brief: z.string().min(10),
        rationale: z.string().min(5),
      }),
    )
    .min(1)
    .max(20),
});

export const ResearchAnswer = z.object({
  outline: z
    .array(
      z.object({ heading: z.string().min(2), points: z.array(z.string().min(2)).min(1).max(8) }),
    )
    .min(3)
    .max(10),
  keyPoints: z.array(z.string().min(2)).min(1).max(10),
  sources: z.array(z.object({ url: z.string(), title: z.string() })).max(10),
  /** Each point with the page it comes from and the passage quoted word for word; older servers' answers without it still parse. */
  evidence: z
    .array(z.object({ point: z.string(), url: z.string(), quote: z.string() }))
    .default([]),
});

export const DraftAnswer = z.object({
  title: z.string().min(3).max(160),
  description: z.string().min(10).max(320),
  body: z.string().min(200),
  tags: z.array(z.string().min(1)).max(10),
  internalLinks: z.array(z.object({ url: z.string(), anchor: z.string() })).max(20),
  /** Every sentence stating a figure, superlative or health claim, with its page and the passage quoted word for word. */
  claims: z
    .array(z.object({ sentence: z.string(), url: z.string(), quote: z.string() }))
    .default([]),
});

export const RevisionAnswer = z.object({
  body: z.string().min(50),
  summary: z.string().min(3),
});
