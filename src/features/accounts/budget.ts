import type { AccountDoc } from '../../../projections/accounts.ts';
import { AppError } from '../../core/errors.ts';
import { accountIdForName } from '../../domain/accounts/account.ts';
import { Budget } from '../../domain/accounts/budget.ts';
import { accountStream } from '../../domain/accounts/decide.ts';
import type { Actor } from '../../eventstore/port.ts';
import type { Platform } from '../../platform.ts';
import { contextFor } from './keys.ts';

/**
 * Reads `--usd N`, `--tokens N` or `--none` as the admin CLI takes them; exactly one, or a
 * validation error that says how to write it.
 */
export function budgetFromOptions(values: {
  usd?: string;
  tokens?: string;
  none?: boolean;
}): Budget | null {
  const given = [
    values.usd !== undefined,
    values.tokens !== undefined,
    values.none === true,
  ].filter(Boolean).length;
  if (given !== 1)
    throw new AppError(
      'validation_failed',
      'accounts budget needs exactly one of --usd <dollars>, --tokens <count> or --none',
    );
  if (values.none) return null;
  const text = (values.usd ?? values.tokens)!.trim();
  const parsed = Budget.safeParse(
    values.usd !== undefined
      ? { usd: text === '' ? Number.NaN : Number(text) }
      : { tokens: text === '' ? Number.NaN : Number(text) },
  );
  if (!parsed.success) {
    throw new AppError(
      'validation_failed',
      values.usd !== undefined
        ? `--usd takes a number of US dollars from 0 to 10,000,000, got "${text}"`
        : `--tokens takes a whole number of tokens from 0 to 10^12, got "${text}"`,
    );
  }
  return parsed.data;
}

/** The account's monthly budget, as an operator sets it (account administration is not in the public API). */
export async function setAccountBudget(
  platform: Platform,
  accountName: string,
  budget: Budget | null,
  actor: Actor,
): Promise<void> {
  const accountId = accountIdForName(accountName);
  await platform.readModels.catchUp(5000);
  if (!(await platform.readStore.get<AccountDoc>('accounts', accountId)))
    throw new AppError('not_found', `No account named ${accountName}.`);
  await platform.commands.execute(
    accountStream,
    accountId,
    { type: 'SetBudget', budget, at: platform.clock.now() },
    contextFor(platform, accountId, actor),
  );
}
