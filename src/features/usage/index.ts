import { modelUsage } from '../../../projections/modelUsage.ts';
import { partitionedConsumer } from '../../consumers/partitioned.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { usageRoutes } from './api.ts';
import { budgetResumeProcess, monthlyBudgetResume } from './resume.ts';

/**
 * What the model calls cost: each project's and account's tokens and estimated cost by month
 * (api.ts, read from the modelUsage read model), and the budgets that make work wait
 * (budgetGate.ts). In the background, a changed budget or a new month resumes what waited.
 */
export const usageFeature: Feature = {
  name: 'usage',
  routes: usageRoutes,
  projections: projectionList(modelUsage),
  background: (platform) => ({
    consumers: [
      partitionedConsumer(
        budgetResumeProcess(platform, platform.config.INKSTREAM_PIPELINE_SLOTS),
        platform,
      ),
    ],
    workers: [monthlyBudgetResume()],
  }),
};
