import { z } from 'zod';
import type { ProjectDoc } from '../../../projections/projects.ts';
import { Budget, monthOf } from '../../domain/accounts/budget.ts';
import { route } from '../../http/route.ts';
import { idOf } from '../../http/schemas.ts';
import { ownedProject } from '../projects/owned.ts';
import { accountBudgetOf, accountMonthUsage, projectMonthUsage } from './spending.ts';

const MonthQuery = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a calendar month, YYYY-MM')
    .optional()
    .describe('A calendar month (UTC), YYYY-MM; the current one when absent'),
});

const MonthUsage = z.object({
  month: z.string(),
  tokensIn: z.number().int(),
  tokensOut: z.number().int(),
  costUsd: z
    .number()
    .describe('Estimated from the price table, for the steps of models that have a price'),
  unpricedTokens: z
    .number()
    .int()
    .describe('Tokens of models without a price, which costUsd does not cover'),
  steps: z.number().int(),
  failedSteps: z.number().int(),
  budget: Budget.nullable(),
});

export const usageRoutes = [
  route({
    method: 'get',
    path: '/projects/:id/usage',
    tag: 'Usage',
    summary: "A project's model tokens and estimated cost in a calendar month, with its budget",
    params: z.object({ id: idOf('prj') }),
    query: MonthQuery,
    responses: {
      200: z.object({
        usage: MonthUsage.extend({ projectId: z.string() }).meta({ id: 'ProjectUsage' }),
      }),
    },
    errors: [404],
    async handle({ params, query, auth, platform }) {
      const project: ProjectDoc = await ownedProject({ platform, auth }, params.id);
      const month = query.month ?? monthOf(platform.clock.now());
      const usage = await projectMonthUsage(platform, project.id, month);
      return {
        status: 200,
        body: {
          usage: { projectId: project.id, ...usage, budget: project.settings.budget ?? null },
        },
      };
    },
  }),
  route({
    method: 'get',
    path: '/usage',
    tag: 'Usage',
    summary: "The account's model tokens and estimated cost in a calendar month, with its budget",
    query: MonthQuery,
    responses: { 200: z.object({ usage: MonthUsage.meta({ id: 'AccountUsage' }) }) },
    async handle({ query, auth, platform }) {
      const month = query.month ?? monthOf(platform.clock.now());
      const usage = await accountMonthUsage(platform, auth.accountId, month);
      return {
        status: 200,
        body: { usage: { ...usage, budget: await accountBudgetOf(platform, auth.accountId) } },
      };
    },
  }),
];
