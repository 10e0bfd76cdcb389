import { accounts } from '../../../projections/accounts.ts';
import { apiKeys } from '../../../projections/apiKeys.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { accountRoutes } from './api.ts';

/**
 * Accounts, their plans and API keys. Keys are made in the application (the admin CLI today:
 * keys.ts), not through /api/v1; plan limits (planLimits.ts) are taken by the other features, and
 * GET /plan (api.ts) says what is used of them.
 */
export const accountsFeature: Feature = {
  name: 'accounts',
  routes: accountRoutes,
  projections: projectionList(accounts, apiKeys),
};
