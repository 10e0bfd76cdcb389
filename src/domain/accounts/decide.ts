import { AppError } from '../../core/errors.ts';
import type { StreamType } from '../../eventstore/handleCommand.ts';
import {
  ACCOUNT_CATEGORY,
  evolveAccount,
  initialAccount,
  type Account,
  type AccountEvent,
} from './account.ts';
import type { PlanName } from './plans.ts';
import type { Budget } from './budget.ts';
import { decideMember, type MemberCommand } from './members.ts';

type NewKey = { keyId: string; name: string; hash: string; prefix: string };

export type AccountCommand =
  | { type: 'EnsureAccount'; accountId: string; name: string; plan: PlanName; at: string }
  | {
      type: 'CreateApiKey';
      accountId: string;
      name: string;
      plan: PlanName;
      key: NewKey;
      at: string;
    }
  | { type: 'RotateApiKey'; keyId: string; key: NewKey; at: string }
  | { type: 'RevokeApiKey'; keyId: string; at: string }
  | { type: 'SetPlan'; plan: PlanName; at: string }
  | { type: 'SetBudget'; budget: Budget | null; at: string }
  | MemberCommand;

export function decideAccount(command: AccountCommand, state: Account): AccountEvent[] {
  switch (command.type) {
    case 'EnsureAccount':
      return state.status === 'none' ? [created(command)] : [];
    case 'CreateApiKey': {
      if (state.status === 'active') requireRoomForKey(state, command.at);
      const creation = state.status === 'none' ? [created(command)] : [];
      return [
        ...creation,
        {
          type: 'ApiKeyCreated',
          data: { accountId: command.accountId, ...command.key, at: command.at },
        },
      ];
    }
    case 'RotateApiKey': {
      const { account, key } = activeKey(state, command.keyId);
      requireRoomForKey(account, command.at);
      return [
        {
          type: 'ApiKeyCreated',
          data: { accountId: account.id, ...command.key, name: key.name, at: command.at },
        },
        {
          type: 'ApiKeyRevoked',
          data: {
            accountId: account.id,
            keyId: key.keyId,
            reason: 'rotated',
            replacedBy: command.key.keyId,
            at: command.at,
          },
        },
      ];
    }
    case 'RevokeApiKey': {
      const { account, key } = activeKey(state, command.keyId);
      return [
        {
          type: 'ApiKeyRevoked',
          data: {
            accountId: account.id,
            keyId: key.keyId,
            reason: 'revoked',
            replacedBy: null,
            at: command.at,
          },
        },
      ];
    }
    case 'SetPlan': {
      const account = requireAccount(state);
      if (account.plan === command.plan) return [];
      return [
        {
          type: 'AccountPlanChanged',
          data: {
            accountId: account.id,
            plan: command.plan,
            previousPlan: account.plan,
            at: command.at,
          },
        },
      ];
    }
    case 'SetBudget': {
      const account = requireAccount(state);
      if (JSON.stringify(account.budget ?? null) === JSON.stringify(command.budget)) return [];
      return [
        {
          type: 'AccountBudgetSet',
          data: { accountId: account.id, budget: command.budget, at: command.at },
        },
      ];
    }
    case 'InviteMember':
    case 'SetMemberPassword':
    case 'ChangeMemberRole':
    case 'RemoveMember': {
      const account = requireAccount(state);
      return decideMember(command, account.id, account.members);
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

function created(command: {
  accountId: string;
  name: string;
  plan: PlanName;
  at: string;
}): AccountEvent {
  return {
    type: 'AccountCreated',
    data: { accountId: command.accountId, name: command.name, plan: command.plan, at: command.at },
  };
}

/**
 * Keys an account may hold: the live ones and those revoked within the last day. The account's
 * stream, folded for every request of its members, so grows only so fast; and revoking does not
 * make room at once, so a create-and-revoke loop is held too.
 */
export const MAX_KEYS_PER_ACCOUNT = 100;
export const REVOKED_KEYS_COUNT_MS = 24 * 60 * 60 * 1000;

function requireRoomForKey(account: Extract<Account, { status: 'active' }>, at: string): void {
  const since = Date.parse(at) - REVOKED_KEYS_COUNT_MS;
  const held = account.keys.filter(
    (key) => key.revokedAt === null || Date.parse(key.revokedAt) > since,
  ).length;
  if (held >= MAX_KEYS_PER_ACCOUNT)
    throw new AppError(
      'conflict',
      `This account holds ${MAX_KEYS_PER_ACCOUNT} API keys, the most it may (keys revoked in the last 24 hours count): revoke keys it no longer uses, and create this one a day later.`,
    );
}

function requireAccount(state: Account): Extract<Account, { status: 'active' }> {
  if (state.status !== 'active') throw new AppError('not_found', 'No such account.');
  return state;
}

function activeKey(state: Account, keyId: string) {
  const account = requireAccount(state);
  const key = account.keys.find((candidate) => candidate.keyId === keyId);
  if (!key) throw new AppError('not_found', `No API key ${keyId}.`);
  if (key.revokedAt) throw new AppError('invalid_state', `API key ${keyId} is already revoked.`);
  return { account, key };
}

export const accountStream: StreamType<Account, AccountEvent, AccountCommand> = {
  category: ACCOUNT_CATEGORY,
  initial: initialAccount,
  evolve: evolveAccount,
  decide: decideAccount,
};
