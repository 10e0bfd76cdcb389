import { accounts } from '../../../projections/accounts.ts';
import { apiKeys } from '../../../projections/apiKeys.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';

/**
 * Accounts, their plans and API keys. Keys are made in the application (the admin CLI today:
 * keys.ts), not through /api/v1; plan limits (planLimits.ts) are taken by the other features.
 */
export const accountsFeature: Feature = {
  name: 'accounts',
  routes: [],
  projections: projectionList(accounts, apiKeys),
};
