import { z } from 'zod';
import { PLAN_NAMES } from '../../domain/accounts/plans.ts';
import { route } from '../../http/route.ts';
import { planUsage } from './planUsage.ts';

const PlanName = z.enum(PLAN_NAMES);
const LimitUsage = z.object({
  used: z.number().int(),
  limit: z.number().int().nullable().describe('null: the plan sets no cap'),
  liftedBy: PlanName.nullable().describe(
    'The first plan that allows more; null when the limit is already the highest',
  ),
});

const PlanSummary = z
  .object({
    name: PlanName,
    maxProjects: z.number().int().nullable(),
    articlesPerMonth: z.number().int().nullable(),
    maxWebhookEndpoints: z.number().int().nullable(),
    features: z.array(z.enum(['search_analytics', 'direct_push'])),
  })
  .meta({ id: 'Plan' });

const AccountPlan = z
  .object({
    name: PlanName,
    month: z.string().describe('The calendar month (UTC, YYYY-MM) the article quota counts'),
    articles: LimitUsage.describe('Articles queued this month against the monthly quota'),
    projects: LimitUsage,
    webhookEndpoints: LimitUsage,
    features: z.array(
      z.object({
        feature: z.enum(['search_analytics', 'direct_push']),
        name: z.string(),
        included: z.boolean(),
        includedIn: z.array(PlanName),
      }),
    ),
  })
  .meta({ id: 'AccountPlan' });

export const accountRoutes = [
  route({
    method: 'get',
    path: '/plan',
    tag: 'Plan',
    summary:
      "The account's plan: what is used of each limit (articles this month, projects, webhook endpoints), which plan lifts it, and every plan",
    responses: { 200: z.object({ plan: AccountPlan, plans: z.array(PlanSummary) }) },
    async handle({ auth, platform }) {
      const plan = await planUsage(platform, auth.accountId, auth.plan);
      const plans = PLAN_NAMES.map((name) => {
        const { maxProjects, articlesPerMonth, maxWebhookEndpoints, features } =
          platform.plans[name];
        return {
          name,
          maxProjects,
          articlesPerMonth,
          maxWebhookEndpoints,
          features: [...features],
        };
      });
      return { status: 200, body: { plan, plans } };
    },
  }),
];
