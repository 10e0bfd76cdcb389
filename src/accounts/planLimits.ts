import { AppError } from '../core/errors.ts';
import type { Services } from '../services.ts';
import type { AuthContext } from '../http/auth.ts';
import { FEATURE_NAMES, type PlanFeature } from './plans.ts';

/** 402s name the limit, so the caller knows whether to wait for next month, delete, or upgrade. */
export async function requireProjectCapacity(services: Services, auth: AuthContext): Promise<void> {
  const plan = services.plans[auth.plan];
  if (plan.maxProjects === null) return;
  const count = await services.readStore.count('projects', { accountId: auth.accountId });
  if (count >= plan.maxProjects) {
    throw new AppError('payment_required', `Project cap reached: the ${plan.name} plan allows ${plan.maxProjects} project${plan.maxProjects === 1 ? '' : 's'}. Upgrade the plan to add more.`);
  }
}

export const monthOf = (iso: string): string => iso.slice(0, 7);

export async function requireArticleQuota(services: Services, auth: AuthContext): Promise<void> {
  const plan = services.plans[auth.plan];
  if (plan.articlesPerMonth === null) return;
  const month = monthOf(services.clock.now());
  const count = await services.readStore.count('articles', { accountId: auth.accountId, createdMonth: month });
  if (count >= plan.articlesPerMonth) {
    throw new AppError('payment_required', `Article quota reached: the ${plan.name} plan allows ${plan.articlesPerMonth} articles per calendar month (${month}). It resets next month, or upgrade the plan.`);
  }
}

export function requireFeature(services: Services, auth: AuthContext, feature: PlanFeature): void {
  const plan = services.plans[auth.plan];
  if (!plan.features.includes(feature)) {
    throw new AppError('payment_required', `The ${plan.name} plan does not include ${FEATURE_NAMES[feature]}. Upgrade the plan to use it.`);
  }
}
