import { MEMBER_EVENTS } from './members.ts';
import type { EventNames } from '../../eventstore/handleCommand.ts';
import { createHash } from 'node:crypto';
import type { PlanName } from './plans.ts';
import type { Budget } from './budget.ts';
import { evolveMembers, isMemberEvent, type MemberEvent, type MemberRecord } from './members.ts';

export type ApiKeyRecord = {
  keyId: string;
  name: string;
  hash: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
};

export type AccountEvent =
  | {
      type: 'AccountCreated';
      data: { accountId: string; name: string; plan: PlanName; at: string };
    }
  | {
      type: 'AccountPlanChanged';
      data: { accountId: string; plan: PlanName; previousPlan: PlanName; at: string };
    }
  | {
      type: 'ApiKeyCreated';
      data: {
        accountId: string;
        keyId: string;
        name: string;
        hash: string;
        prefix: string;
        at: string;
      };
    }
  | {
      type: 'ApiKeyRevoked';
      data: {
        accountId: string;
        keyId: string;
        reason: 'revoked' | 'rotated';
        replacedBy: string | null;
        at: string;
      };
    }
  /** The account's monthly cap on model use, set by an operator (null: none). */
  | { type: 'AccountBudgetSet'; data: { accountId: string; budget: Budget | null; at: string } }
  | MemberEvent;

/** Every type of AccountEvent, as data: a read model skips (and logs) a type it does not know. */
export const ACCOUNT_EVENTS: EventNames<AccountEvent> = {
  ...MEMBER_EVENTS,
  AccountCreated: true,
  AccountPlanChanged: true,
  ApiKeyCreated: true,
  ApiKeyRevoked: true,
  AccountBudgetSet: true,
};

export type Account =
  | { status: 'none' }
  | {
      status: 'active';
      id: string;
      name: string;
      plan: PlanName;
      keys: ApiKeyRecord[];
      budget?: Budget | null;
      members: MemberRecord[];
    };

export const ACCOUNT_CATEGORY = 'account';

export const initialAccount = (): Account => ({ status: 'none' });

export function evolveAccount(state: Account, event: AccountEvent): Account {
  switch (event.type) {
    case 'AccountCreated':
      return {
        status: 'active',
        id: event.data.accountId,
        name: event.data.name,
        plan: event.data.plan,
        keys: [],
        members: [],
      };
    case 'AccountPlanChanged':
      return state.status === 'active' ? { ...state, plan: event.data.plan } : state;
    case 'ApiKeyCreated': {
      if (state.status !== 'active') return state;
      const { keyId, name, hash, prefix, at } = event.data;
      return {
        ...state,
        keys: [...state.keys, { keyId, name, hash, prefix, createdAt: at, revokedAt: null }],
      };
    }
    case 'AccountBudgetSet':
      return state.status === 'active' ? { ...state, budget: event.data.budget } : state;
    case 'ApiKeyRevoked':
      if (state.status !== 'active') return state;
      return {
        ...state,
        keys: state.keys.map((key) =>
          key.keyId === event.data.keyId ? { ...key, revokedAt: event.data.at } : key,
        ),
      };
    default:
      if (state.status === 'active' && isMemberEvent(event))
        return { ...state, members: evolveMembers(state.members, event) };
      return state;
  }
}

/** Account names are unique, so the id is derived from the name: "create if new" is one append with 'no_stream'. */
export function accountIdForName(name: string): string {
  const digest = createHash('sha256').update(name.trim().toLowerCase()).digest();
  const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
  let id = '';
  for (let i = 0; i < 26; i++) id += alphabet[digest[i] % 32];
  return `acc_${id}`;
}
