import { z } from 'zod';

/**
 * A monthly spending cap on model calls (calendar months, UTC): in tokens (in and out together)
 * or in estimated US dollars from the price table. Null: no cap.
 */
export const Budget = z
  .union([
    z.object({ tokens: z.number().int().min(0).max(1e12) }).strict(),
    z.object({ usd: z.number().min(0).max(1e7) }).strict(),
  ])
  .describe(
    'A monthly cap on model use: { "tokens": N } (in and out together) or { "usd": N } (estimated cost); null for none',
  );
export type Budget = z.infer<typeof Budget>;

/** What a month's model calls took so far. */
export type Spent = { tokens: number; costUsd: number };

/** A budget is spent once what was used reaches it; the step that crosses it is not cut off. */
export function budgetSpent(budget: Budget, spent: Spent): boolean {
  return 'tokens' in budget ? spent.tokens >= budget.tokens : spent.costUsd >= budget.usd;
}

/** The UTC calendar month (YYYY-MM) of an ISO time. */
export const monthOf = (at: string): string => at.slice(0, 7);
