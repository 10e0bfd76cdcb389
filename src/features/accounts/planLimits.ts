import { AppError } from '../../core/errors.ts';
import type { CommandContext } from '../../eventstore/handleCommand.ts';
import type { EventStore } from '../../eventstore/port.ts';
import type { Platform } from '../../platform.ts';
import type { AuthContext } from '../../http/auth.ts';
import {
  FEATURE_NAMES,
  PLAN_NAMES,
  type Plan,
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

/** What a plan caps by slots in a usage ledger (domain/accounts/usage.ts). */
export type SlotKind = 'article' | 'project' | 'webhook';

/** A slot held for `holderId` (an article, project or endpoint id); null when the plan has no such limit. */
export type Slot = { kind: SlotKind; accountId: string; holderId: string; takenAt: string } | null;

type SlotRequest = { accountId: string; plan: PlanName; holderId: string; at: string };

/**
 * Each limit as data: the plan's number, the ledger that counts it, what the read models already
 * hold (a floor under the ledger's own count), and its take and release commands.
 */
const SLOT_RULES: Record<
  SlotKind,
  {
    limitOf(plan: Plan): number | null;
    ledgerOf(accountId: string, takenAt: string): string;
    counted(platform: Platform, accountId: string, at: string): Promise<number>;
    take(request: SlotRequest, limit: number, counted: number): UsageCommand;
    release(slot: NonNullable<Slot>, reason: string, at: string): UsageCommand;
  }
> = {
  article: {
    limitOf: (plan) => plan.articlesPerMonth,
    ledgerOf: (accountId, takenAt) => articleUsageId(accountId, monthOf(takenAt)),
    counted: (platform, accountId, at) =>
      platform.readStore.count('articles', { accountId, createdMonth: monthOf(at) }),
    take: ({ accountId, plan, holderId, at }, limit, counted) => ({
      type: 'TakeArticleSlot',
      accountId,
      articleId: holderId,
      month: monthOf(at),
      plan,
      limit,
      counted,
      at,
    }),
    release: ({ accountId, holderId, takenAt }, reason, at) => ({
      type: 'ReleaseArticleSlot',
      accountId,
      articleId: holderId,
      month: monthOf(takenAt),
      reason,
      at,
    }),
  },
  project: {
    limitOf: (plan) => plan.maxProjects,
    ledgerOf: (accountId) => projectUsageId(accountId),
    counted: (platform, accountId) => platform.readStore.count('projects', { accountId }),
    take: ({ accountId, plan, holderId, at }, limit, counted) => ({
      type: 'TakeProjectSlot',
      accountId,
      projectId: holderId,
      plan,
      limit,
      counted,
      at,
    }),
    release: ({ accountId, holderId }, reason, at) => ({
      type: 'ReleaseProjectSlot',
      accountId,
      projectId: holderId,
      reason,
      at,
    }),
  },
  webhook: {
    limitOf: (plan) => plan.maxWebhookEndpoints,
    ledgerOf: (accountId) => webhookUsageId(accountId),
    counted: (platform, accountId) => platform.readStore.count('webhooks', { accountId }),
    take: ({ accountId, plan, holderId, at }, limit, counted) => ({
      type: 'TakeWebhookSlot',
      accountId,
      endpointId: holderId,
      plan,
      limit,
      counted,
      at,
    }),
    release: ({ accountId, holderId }, reason, at) => ({
      type: 'ReleaseWebhookSlot',
      accountId,
      endpointId: holderId,
      reason,
      at,
    }),
  },
};

/**
 * Takes a slot of a plan limit for `holderId` before anything else is written, or throws 402
 * naming the limit (the article quota of the month, the project cap, the webhook endpoint cap).
 * Uncapped plans take nothing. Taking again for a holder that has its slot appends nothing, so a
 * rerun (the scheduler after a restart) cannot count twice.
 */
export async function takeSlot(
  platform: Platform,
  kind: SlotKind,
  request: SlotRequest,
  context: CommandContext,
): Promise<Slot> {
  const rules = SLOT_RULES[kind];
  const plan = platform.plans[request.plan] as Plan | undefined;
  const limit = plan ? rules.limitOf(plan) : null;
  if (limit === null) return null;
  const counted = await rules.counted(platform, request.accountId, request.at);
  const ledger = rules.ledgerOf(request.accountId, request.at);
  await onLedger(platform, ledger, rules.take(request, limit, counted), context);
  return { kind, accountId: request.accountId, holderId: request.holderId, takenAt: request.at };
}

/**
 * Gives a slot back when the write it was taken for did not happen, or its holder was deleted. A
 * holder without a slot appends nothing.
 */
export async function releaseSlot(
  platform: Platform,
  slot: Slot,
  reason: string,
  context: CommandContext,
): Promise<void> {
  if (!slot) return;
  const rules = SLOT_RULES[slot.kind];
  const command = rules.release(slot, reason, platform.clock.now());
  await onLedger(platform, rules.ledgerOf(slot.accountId, slot.takenAt), command, context);
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
