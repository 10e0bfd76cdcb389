import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const PLAN_NAMES = ['free', 'pro', 'unlimited'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];
export type PlanFeature = 'search_analytics' | 'direct_push';

export type Plan = {
  name: PlanName;
  /** null = no cap */
  maxProjects: number | null;
  articlesPerMonth: number | null;
  /** Webhook endpoints an account may have at once: each one multiplies every event into a retried POST. */
  maxWebhookEndpoints: number | null;
  /** The ceiling on a project's crawl.maxPages (docs/site-corpus.md); absent in a plans file: the built-in plan's. */
  maxCrawlPages?: number;
  features: readonly PlanFeature[];
};

export const DEFAULT_MAX_WEBHOOK_ENDPOINTS = 20;

export const BUILT_IN_PLANS: Record<PlanName, Plan> = {
  free: {
    name: 'free',
    maxCrawlPages: 500,
    maxProjects: 1,
    articlesPerMonth: 10,
    maxWebhookEndpoints: DEFAULT_MAX_WEBHOOK_ENDPOINTS,
    features: [],
  },
  pro: {
    name: 'pro',
    maxCrawlPages: 10_000,
    maxProjects: 10,
    articlesPerMonth: 200,
    maxWebhookEndpoints: DEFAULT_MAX_WEBHOOK_ENDPOINTS,
    features: ['search_analytics', 'direct_push'],
  },
  // "unlimited" lifts the commercial limits; the endpoint cap bounds fan-out, so it stays unless a plans file lifts it.
  unlimited: {
    name: 'unlimited',
    maxCrawlPages: 50_000,
    maxProjects: null,
    articlesPerMonth: null,
    maxWebhookEndpoints: DEFAULT_MAX_WEBHOOK_ENDPOINTS,
    features: ['search_analytics', 'direct_push'],
  },
};

export const FEATURE_NAMES: Record<PlanFeature, string> = {
  search_analytics: 'search analytics',
  direct_push: 'direct push publishing',
};

const PlanOverride = z
  .object({
    maxProjects: z.number().int().positive().nullable().optional(),
    articlesPerMonth: z.number().int().positive().nullable().optional(),
    maxWebhookEndpoints: z.number().int().positive().nullable().optional(),
    maxCrawlPages: z.number().int().positive().optional(),
    features: z.array(z.enum(['search_analytics', 'direct_push'])).optional(),
  })
  .strict();

const PlansFile = z.record(z.enum(PLAN_NAMES), PlanOverride);

/** Built-in plans, with any overrides from a JSON file ({ "free": { "articlesPerMonth": 20 } }). */
export function loadPlans(path?: string): Record<PlanName, Plan> {
  if (!path) return BUILT_IN_PLANS;
  const overrides = PlansFile.parse(JSON.parse(readFileSync(path, 'utf8')));
  const plans = { ...BUILT_IN_PLANS };
  for (const name of PLAN_NAMES) {
    const override = overrides[name];
    if (override) plans[name] = { ...plans[name], ...override, name };
  }
  return plans;
}
