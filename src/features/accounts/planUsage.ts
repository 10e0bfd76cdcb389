import type { Platform } from '../../platform.ts';
import { loadStream } from '../../eventstore/handleCommand.ts';
import {
  FEATURE_NAMES,
  PLAN_NAMES,
  type Plan,
  type PlanFeature,
  type PlanName,
} from '../../domain/accounts/plans.ts';
import {
  articleUsageId,
  projectUsageId,
  usageStream,
  webhookUsageId,
} from '../../domain/accounts/usage.ts';
import { monthOf } from './planLimits.ts';

type LimitName = 'articlesPerMonth' | 'maxProjects' | 'maxWebhookEndpoints';
export type LimitUsage = { used: number; limit: number | null; liftedBy: PlanName | null };

/**
 * What the account has used of its plan, counted as the limits count it (planLimits.ts): the
 * larger of the slots held in the usage ledger and what the read models hold, so the page shows
 * the number the next write will be measured against.
 */
export async function planUsage(
  platform: Pick<Platform, 'eventStore' | 'readStore' | 'plans' | 'clock'>,
  accountId: string,
  planName: PlanName,
) {
  const plan = platform.plans[planName];
  const month = monthOf(platform.clock.now());
  const used = async (ledgerId: string, collection: string, filter: Record<string, string>) => {
    const [{ state }, counted] = await Promise.all([
      loadStream(platform.eventStore, usageStream, ledgerId),
      platform.readStore.count(collection, filter),
    ]);
    return Math.max(state.holders.length, counted);
  };
  const [articles, projects, webhookEndpoints] = await Promise.all([
    used(articleUsageId(accountId, month), 'articles', { accountId, createdMonth: month }),
    used(projectUsageId(accountId), 'projects', { accountId }),
    used(webhookUsageId(accountId), 'webhooks', { accountId }),
  ]);
  const limit = (name: LimitName, count: number): LimitUsage => ({
    used: count,
    limit: plan[name],
    liftedBy: planLifting(platform.plans, plan, name),
  });
  return {
    name: plan.name,
    month,
    articles: limit('articlesPerMonth', articles),
    projects: limit('maxProjects', projects),
    webhookEndpoints: limit('maxWebhookEndpoints', webhookEndpoints),
    features: (Object.keys(FEATURE_NAMES) as PlanFeature[]).map((feature) => ({
      feature,
      name: FEATURE_NAMES[feature],
      included: plan.features.includes(feature),
      includedIn: PLAN_NAMES.filter((name) => platform.plans[name].features.includes(feature)),
    })),
  };
}

/** The first plan, in the order free, pro, unlimited, that allows more than this one (null: no cap); null when none does. */
export function planLifting(
  plans: Record<PlanName, Plan>,
  current: Plan,
  limit: LimitName,
): PlanName | null {
  const mine = current[limit];
  if (mine === null) return null;
  return (
    PLAN_NAMES.find(
      (name) =>
        name !== current.name && (plans[name][limit] === null || plans[name][limit]! > mine),
    ) ?? null
  );
}
