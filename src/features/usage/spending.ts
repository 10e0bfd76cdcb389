import type { AccountDoc } from '../../../projections/accounts.ts';
import { modelUsageId, type ModelUsageDoc } from '../../../projections/modelUsage.ts';
import type { Platform } from '../../platform.ts';

/** A month's model use, as the API shows it. `costUsd` covers priced steps; `unpricedTokens` the rest. */
export type MonthUsage = {
  month: string;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  unpricedTokens: number;
  steps: number;
  failedSteps: number;
};

const emptyMonth = (month: string): MonthUsage => ({
  month,
  tokensIn: 0,
  tokensOut: 0,
  costUsd: 0,
  unpricedTokens: 0,
  steps: 0,
  failedSteps: 0,
});

function add(total: MonthUsage, doc: ModelUsageDoc): MonthUsage {
  return {
    month: total.month,
    tokensIn: total.tokensIn + doc.tokensIn,
    tokensOut: total.tokensOut + doc.tokensOut,
    costUsd: Math.round((total.costUsd + doc.costUsd) * 1e6) / 1e6,
    unpricedTokens: total.unpricedTokens + doc.unpricedTokens,
    steps: total.steps + doc.steps,
    failedSteps: total.failedSteps + doc.failedSteps,
  };
}

export async function projectMonthUsage(
  platform: Pick<Platform, 'readStore'>,
  projectId: string,
  month: string,
): Promise<MonthUsage> {
  const doc = await platform.readStore.get<ModelUsageDoc>(
    'model_usage',
    modelUsageId(projectId, month),
  );
  return doc ? add(emptyMonth(month), doc) : emptyMonth(month);
}

/** The sum of the account's projects in the month (a page at a time; an account has few projects). */
export async function accountMonthUsage(
  platform: Pick<Platform, 'readStore'>,
  accountId: string,
  month: string,
): Promise<MonthUsage> {
  let total = emptyMonth(month);
  let cursor: string | undefined;
  do {
    const page = await platform.readStore.find<ModelUsageDoc>('model_usage', {
      filter: { accountId, month },
      limit: 200,
      cursor,
    });
    for (const doc of page.items) total = add(total, doc);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return total;
}

export async function accountBudgetOf(platform: Pick<Platform, 'readStore'>, accountId: string) {
  return (await platform.readStore.get<AccountDoc>('accounts', accountId))?.budget ?? null;
}

export const spentOf = (usage: MonthUsage) => ({
  tokens: usage.tokensIn + usage.tokensOut,
  costUsd: usage.costUsd,
});
