import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import { ACCOUNT_EVENTS, type AccountEvent } from '../src/domain/accounts/account.ts';
import type { PlanName } from '../src/domain/accounts/plans.ts';
import type { Budget } from '../src/domain/accounts/budget.ts';

export type AccountDoc = {
  id: string;
  name: string;
  plan: PlanName;
  createdAt: string;
  budget?: Budget | null;
};

export const accounts = defineProjection<AccountDoc, AccountEvent>({
  name: 'accounts',
  collection: 'accounts',
  indexes: ['name'],
  categories: ['account'],
  events: ACCOUNT_EVENTS,
  documentId: (event) => String(event.data.accountId),
  evolve(doc, event) {
    switch (event.type) {
      case 'AccountCreated':
        return {
          id: event.data.accountId,
          name: event.data.name,
          plan: event.data.plan,
          createdAt: event.data.at,
        };
      case 'AccountPlanChanged':
        return doc && { ...doc, plan: event.data.plan };
      case 'AccountBudgetSet':
        return doc && { ...doc, budget: event.data.budget };
      default:
        return doc;
    }
  },
});
