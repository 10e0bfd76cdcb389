import type { AccountDoc } from '../../../../projections/accounts.ts';
import { BUILT_IN_PLANS } from '../../../domain/accounts/plans.ts';
import type { Platform } from '../../../platform.ts';

/** The most pages the account's plan lets a project's corpus hold (crawl.maxPages is clamped to it). */
export async function crawlPageCeiling(
  platform: Pick<Platform, 'readStore' | 'plans'>,
  accountId: string,
): Promise<number> {
  const account = await platform.readStore.get<AccountDoc>('accounts', accountId);
  const plan = account ? platform.plans[account.plan] : BUILT_IN_PLANS.free;
  return plan.maxCrawlPages ?? BUILT_IN_PLANS[plan.name].maxCrawlPages ?? 500;
}
