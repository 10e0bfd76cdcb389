import { budgetSpent, monthOf } from '../../domain/accounts/budget.ts';
import type { WaitingFor } from '../../domain/articles/runs.ts';
import { projectStream } from '../../domain/projects/decide.ts';
import { loadStream } from '../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../eventstore/port.ts';
import type { Platform } from '../../platform.ts';
import { accountBudgetOf, accountMonthUsage, projectMonthUsage, spentOf } from './spending.ts';

/** How long a step waits for the read models to hold everything before its trigger. */
const CATCH_UP_MS = 2000;

/**
 * Whether a model step of an article may start: null when it may, else what it waits for. The
 * account's budget is checked first, then the project's. Spending is read from the usage read
 * model once it holds every event before the trigger, so steps that finished before it count;
 * steps running at the same moment do not, which is how far a month can overshoot (docs/llm.md).
 */
export async function budgetWait(
  platform: Pick<Platform, 'readStore' | 'eventStore' | 'readModels' | 'clock'>,
  input: { event: StoredEvent; projectId: string; step: WaitingFor['step'] },
): Promise<WaitingFor | null> {
  const { event, projectId, step } = input;
  const accountId = event.metadata.accountId;
  const since = platform.clock.now();
  const month = monthOf(since);
  const accountBudget = await accountBudgetOf(platform, accountId);
  const { state: project } = await loadStream(platform.eventStore, projectStream, projectId);
  const projectBudget = project.status === 'none' ? null : (project.settings.budget ?? null);
  if (!accountBudget && !projectBudget) return null;
  await platform.readModels.catchUp(CATCH_UP_MS, event.position);
  if (accountBudget) {
    const spent = spentOf(await accountMonthUsage(platform, accountId, month));
    if (budgetSpent(accountBudget, spent))
      return {
        reason: 'budget',
        scope: 'account',
        step,
        month,
        budget: accountBudget,
        spent,
        since,
      };
  }
  if (projectBudget) {
    const spent = spentOf(await projectMonthUsage(platform, projectId, month));
    if (budgetSpent(projectBudget, spent))
      return {
        reason: 'budget',
        scope: 'project',
        step,
        month,
        budget: projectBudget,
        spent,
        since,
      };
  }
  return null;
}
