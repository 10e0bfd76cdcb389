import { AppError } from '../../core/errors.ts';
import type { CommandContext } from '../../eventstore/handleCommand.ts';
import type { EventStore } from '../../eventstore/port.ts';
import type { Platform } from '../../platform.ts';
import type { AuthContext } from '../../http/auth.ts';
import {
  FEATURE_NAMES,
  PLAN_NAMES,
  type PlanFeature,
  type PlanName,
} from '../../domain/accounts/plans.ts';
import {
  articleUsageId,
  projectUsageId,
  usageStream,
  webhookUsageId,
  type UsageCommand,
} from '../../domain/accounts/usage.ts';

export const monthOf = (iso: string): string => iso.slice(0, 7);

/** A slot held in a usage ledger (see usage.ts); null when the plan has no such limit. */
export type ArticleSlot = { accountId: string; articleId: string; month: string } | null;
export type ProjectSlot = { accountId: string; projectId: string } | null;
export type WebhookSlot = { accountId: string; endpointId: string } | null;

/**
 * Takes a slot of the month's article quota for `articleId` before anything else is written, or
 * throws 402 naming the quota. Uncapped plans take nothing. Taking again for an article that holds
 * a slot appends nothing, so a rerun (the scheduler after a restart) cannot count twice.
 */
export async function takeArticleSlot(
  platform: Platform,
  request: { accountId: string; plan: PlanName; articleId: string; at: string },
  context: CommandContext,
): Promise<ArticleSlot> {
  const { accountId, plan, articleId, at } = request;
  const limit = platform.plans[plan]?.articlesPerMonth ?? null;
  if (limit === null) return null;
  const month = monthOf(at);
  const counted = await platform.readStore.count('articles', { accountId, createdMonth: month });
  await onLedger(
    platform,
    articleUsageId(accountId, month),
    { type: 'TakeArticleSlot', accountId, articleId, month, plan, limit, counted, at },
    context,
  );
  return { accountId, articleId, month };
}

/** Gives a slot back when the write it was taken for did not happen (the topic was written by someone else). */
export async function releaseArticleSlot(
  platform: Platform,
  slot: ArticleSlot,
  reason: string,
  context: CommandContext,
): Promise<void> {
  if (!slot) return;
  const { accountId, articleId, month } = slot;
  await onLedger(
    platform,
    articleUsageId(accountId, month),
    { type: 'ReleaseArticleSlot', accountId, articleId, month, reason, at: platform.clock.now() },
    context,
  );
}

/** The project cap, as a slot taken for `projectId` before the project is created; 402 naming the cap. */
export async function takeProjectSlot(
  platform: Platform,
  request: { accountId: string; plan: PlanName; projectId: string; at: string },
  context: CommandContext,
): Promise<ProjectSlot> {
  const { accountId, plan, projectId, at } = request;
  const limit = platform.plans[plan]?.maxProjects ?? null;
  if (limit === null) return null;
  const counted = await platform.readStore.count('projects', { accountId });
  await onLedger(
    platform,
    projectUsageId(accountId),
    { type: 'TakeProjectSlot', accountId, projectId, plan, limit, counted, at },
    context,
  );
  return { accountId, projectId };
}

export async function releaseProjectSlot(
  platform: Platform,
  slot: ProjectSlot,
  reason: string,
  context: CommandContext,
): Promise<void> {
  if (!slot) return;
  const { accountId, projectId } = slot;
  await onLedger(
    platform,
    projectUsageId(accountId),
    { type: 'ReleaseProjectSlot', accountId, projectId, reason, at: platform.clock.now() },
    context,
  );
}

/** The webhook endpoint cap, as a slot taken for `endpointId` before the endpoint is registered; 402 naming the cap. */
export async function takeWebhookSlot(
  platform: Platform,
  request: { accountId: string; plan: PlanName; endpointId: string; at: string },
  context: CommandContext,
): Promise<WebhookSlot> {
  const { accountId, plan, endpointId, at } = request;
  const limit = platform.plans[plan]?.maxWebhookEndpoints ?? null;
  if (limit === null) return null;
  const counted = await platform.readStore.count('webhooks', { accountId });
  await onLedger(
    platform,
    webhookUsageId(accountId),
    { type: 'TakeWebhookSlot', accountId, endpointId, plan, limit, counted, at },
    context,
  );
  return { accountId, endpointId };
}

/** Gives the slot back: the registration failed, or the endpoint was deleted. A holder without a slot appends nothing. */
export async function releaseWebhookSlot(
  platform: Platform,
  slot: WebhookSlot,
  reason: string,
  context: CommandContext,
): Promise<void> {
  if (!slot) return;
  const { accountId, endpointId } = slot;
  await onLedger(
    platform,
    webhookUsageId(accountId),
    { type: 'ReleaseWebhookSlot', accountId, endpointId, reason, at: platform.clock.now() },
    context,
  );
}

export function requireFeature(platform: Platform, auth: AuthContext, feature: PlanFeature): void {
  const plan = platform.plans[auth.plan];
  if (plan.features.includes(feature)) return;
  const including = PLAN_NAMES.filter((name) => platform.plans[name].features.includes(feature));
  const where = including.length
    ? `; the ${including.join(' and ')} plan${including.length > 1 ? 's include' : ' includes'} it`
    : '';
  throw new AppError(
    'payment_required',
    `The ${plan.name} plan does not include ${FEATURE_NAMES[feature]}${where}. Upgrade the plan to use it.`,
    {
      details: including.map((name) => ({ path: 'plan', message: name })),
    },
  );
}

/**
 * A ledger is one hot stream per account: requests of one process take their turn on it, so they
 * do not spend their conflict retries on each other. Across processes the expected revision
 * decides, as for every command (3 attempts, then 409 conflict).
 */
const ledgerTurns = new WeakMap<EventStore, Map<string, Promise<void>>>();

async function onLedger(
  platform: Platform,
  usageId: string,
  command: UsageCommand,
  context: CommandContext,
): Promise<void> {
  let turns = ledgerTurns.get(platform.eventStore);
  if (!turns) ledgerTurns.set(platform.eventStore, (turns = new Map()));
  const previous = turns.get(usageId) ?? Promise.resolve();
  const mine = previous.then(() =>
    platform.commands.execute(usageStream, usageId, command, context),
  );
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  turns.set(usageId, settled);
  try {
    await mine;
  } finally {
    if (turns.get(usageId) === settled) turns.delete(usageId);
  }
}
