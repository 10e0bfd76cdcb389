import { AppError } from '../../core/errors.ts';
import type { StreamType } from '../../eventstore/handleCommand.ts';
import type { PlanName } from './plans.ts';

/**
 * An account's plan usage as a ledger of slots: one stream per account and calendar month for
 * articles (`usage-<accountId>_<yyyy-mm>`, so it stays as short as the quota), one per account
 * for projects (`usage-<accountId>_projects`) and one for webhook endpoints (`usage-<accountId>_webhooks`). A write takes its slot here first, with the
 * revision it read, so concurrent requests, in one process or several, cannot overrun a limit.
 */
export type UsageEvent =
  | {
      type: 'ArticleSlotTaken';
      data: {
        accountId: string;
        articleId: string;
        month: string;
        plan: PlanName;
        limit: number;
        at: string;
      };
    }
  | {
      type: 'ArticleSlotReleased';
      data: { accountId: string; articleId: string; month: string; reason: string; at: string };
    }
  | {
      type: 'ProjectSlotTaken';
      data: { accountId: string; projectId: string; plan: PlanName; limit: number; at: string };
    }
  | {
      type: 'ProjectSlotReleased';
      data: { accountId: string; projectId: string; reason: string; at: string };
    }
  | {
      type: 'WebhookSlotTaken';
      data: { accountId: string; endpointId: string; plan: PlanName; limit: number; at: string };
    }
  | {
      type: 'WebhookSlotReleased';
      data: { accountId: string; endpointId: string; reason: string; at: string };
    };

/** The ids (articles, projects or webhook endpoints) holding a slot of this ledger. */
export type Usage = { holders: readonly string[] };

export const USAGE_CATEGORY = 'usage';

export const articleUsageId = (accountId: string, month: string): string => `${accountId}_${month}`;
export const projectUsageId = (accountId: string): string => `${accountId}_projects`;
export const webhookUsageId = (accountId: string): string => `${accountId}_webhooks`;

export const initialUsage = (): Usage => ({ holders: [] });

export function evolveUsage(state: Usage, event: UsageEvent): Usage {
  switch (event.type) {
    case 'ArticleSlotTaken':
      return { holders: [...state.holders, event.data.articleId] };
    case 'ProjectSlotTaken':
      return { holders: [...state.holders, event.data.projectId] };
    case 'WebhookSlotTaken':
      return { holders: [...state.holders, event.data.endpointId] };
    case 'ArticleSlotReleased':
      return { holders: state.holders.filter((id) => id !== event.data.articleId) };
    case 'ProjectSlotReleased':
      return { holders: state.holders.filter((id) => id !== event.data.projectId) };
    case 'WebhookSlotReleased':
      return { holders: state.holders.filter((id) => id !== event.data.endpointId) };
    default:
      return state; // unknown events are ignored: old logs must still fold
  }
}

/**
 * `counted` is what the read models already hold (articles created this month, projects): a floor
 * under the ledger's own count, so work from before the ledger existed, or from a time the
 * account was on an uncapped plan (which takes no slots), still counts.
 */
export type UsageCommand =
  | {
      type: 'TakeArticleSlot';
      accountId: string;
      articleId: string;
      month: string;
      plan: PlanName;
      limit: number;
      counted: number;
      at: string;
    }
  | {
      type: 'ReleaseArticleSlot';
      accountId: string;
      articleId: string;
      month: string;
      reason: string;
      at: string;
    }
  | {
      type: 'TakeProjectSlot';
      accountId: string;
      projectId: string;
      plan: PlanName;
      limit: number;
      counted: number;
      at: string;
    }
  | { type: 'ReleaseProjectSlot'; accountId: string; projectId: string; reason: string; at: string }
  | {
      type: 'TakeWebhookSlot';
      accountId: string;
      endpointId: string;
      plan: PlanName;
      limit: number;
      counted: number;
      at: string;
    }
  | {
      type: 'ReleaseWebhookSlot';
      accountId: string;
      endpointId: string;
      reason: string;
      at: string;
    };

export function decideUsage(command: UsageCommand, state: Usage): UsageEvent[] {
  switch (command.type) {
    case 'TakeArticleSlot': {
      const { accountId, articleId, month, plan, limit, at } = command;
      if (state.holders.includes(articleId)) return []; // a retried take holds its slot already
      if (used(state, command.counted) >= limit) {
        throw new AppError(
          'payment_required',
          `Article quota reached: the ${plan} plan allows ${limit} article${limit === 1 ? '' : 's'} per calendar month (${month}). It resets next month, or upgrade the plan.`,
        );
      }
      return [{ type: 'ArticleSlotTaken', data: { accountId, articleId, month, plan, limit, at } }];
    }
    case 'TakeProjectSlot': {
      const { accountId, projectId, plan, limit, at } = command;
      if (state.holders.includes(projectId)) return [];
      if (used(state, command.counted) >= limit) {
        throw new AppError(
          'payment_required',
          `Project cap reached: the ${plan} plan allows ${limit} project${limit === 1 ? '' : 's'}. Upgrade the plan to add more.`,
        );
      }
      return [{ type: 'ProjectSlotTaken', data: { accountId, projectId, plan, limit, at } }];
    }
    case 'TakeWebhookSlot': {
      const { accountId, endpointId, plan, limit, at } = command;
      if (state.holders.includes(endpointId)) return [];
      if (used(state, command.counted) >= limit) {
        throw new AppError(
          'payment_required',
          `Webhook endpoint cap reached: the ${plan} plan allows ${limit} endpoint${limit === 1 ? '' : 's'} per account. Delete an endpoint you no longer use (DELETE /api/v1/webhooks/:id), or upgrade the plan.`,
        );
      }
      return [{ type: 'WebhookSlotTaken', data: { accountId, endpointId, plan, limit, at } }];
    }
    case 'ReleaseArticleSlot': {
      const { accountId, articleId, month, reason, at } = command;
      return state.holders.includes(articleId)
        ? [{ type: 'ArticleSlotReleased', data: { accountId, articleId, month, reason, at } }]
        : [];
    }
    case 'ReleaseProjectSlot': {
      const { accountId, projectId, reason, at } = command;
      return state.holders.includes(projectId)
        ? [{ type: 'ProjectSlotReleased', data: { accountId, projectId, reason, at } }]
        : [];
    }
    case 'ReleaseWebhookSlot': {
      const { accountId, endpointId, reason, at } = command;
      return state.holders.includes(endpointId)
        ? [{ type: 'WebhookSlotReleased', data: { accountId, endpointId, reason, at } }]
        : [];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

const used = (state: Usage, counted: number): number => Math.max(state.holders.length, counted);

export const usageStream: StreamType<Usage, UsageEvent, UsageCommand> = {
  category: USAGE_CATEGORY,
  initial: initialUsage,
  evolve: evolveUsage,
  decide: decideUsage,
};
