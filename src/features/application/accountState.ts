import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import type { Actor } from '../../eventstore/port.ts';
import { loadStream } from '../../eventstore/handleCommand.ts';
import { accountStream } from '../../domain/accounts/decide.ts';
import type { Account } from '../../domain/accounts/account.ts';
import type { MemberRecord } from '../../domain/accounts/members.ts';

export type ActiveAccount = Extract<Account, { status: 'active' }>;

/** The account as its stream says now (not a read model): who is a member, with which role, is never stale. */
export async function activeAccount(platform: Pick<Platform, 'eventStore'>, accountId: string) {
  const { state, events } = await loadStream(platform.eventStore, accountStream, accountId);
  if (state.status !== 'active') throw new AppError('not_found', 'No such account.');
  return { account: state, events };
}

export function memberOf(account: ActiveAccount, memberId: string): MemberRecord {
  const member = account.members.find((candidate) => candidate.memberId === memberId);
  if (!member) throw new AppError('not_found', `No member ${memberId} in this account.`);
  return member;
}

/** Metadata for a command made by someone: `step` keeps event ids of one request's commands apart. */
export function commandContextFor(
  accountId: string,
  actor: Actor,
  requestId: string,
  step = 'main',
) {
  return {
    accountId,
    actor,
    correlationId: requestId,
    requestId,
    commandId: `${requestId}:${step}`,
  };
}
