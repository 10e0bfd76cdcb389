import type { ArticleDoc } from '../../../projections/articles.ts';
import { monthOf } from '../../domain/accounts/budget.ts';
import { articleStream } from '../../domain/articles/decide.ts';
import type { PartitionedHandler } from '../../consumers/partitioned.ts';
import { periodicWorker } from '../../consumers/periodicWorker.ts';
import { keyedContext } from '../../consumers/commandContext.ts';
import type { CommandContext } from '../../eventstore/handleCommand.ts';
import type { Filter } from '../../readstore/port.ts';
import type { Platform } from '../../platform.ts';

export const BUDGET_RESUME_WORKER = 'usage.budgetResume';

type ResumePlatform = Pick<Platform, 'readStore' | 'commands' | 'clock'>;

/** Appends ArticleResumed to each waiting article the filter finds; the pipeline then checks its step again. */
async function resumeWaiting(
  platform: ResumePlatform,
  filter: Filter,
  contextFor: (article: ArticleDoc) => CommandContext,
  only = (_: ArticleDoc) => true,
) {
  let cursor: string | undefined;
  do {
    const page = await platform.readStore.find<ArticleDoc>('articles', {
      filter: { ...filter, waiting: 'budget' },
      limit: 200,
      cursor,
    });
    for (const article of page.items.filter(only)) {
      await platform.commands.execute(
        articleStream,
        article.id,
        { type: 'ResumeArticle', at: platform.clock.now() },
        contextFor(article),
      );
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/**
 * A changed budget (the account's, set by an operator, or a project's settings) resumes every
 * article of the account that waits for a budget: each checks again, and waits again if a budget
 * is still spent. Keyed by the change, so a redelivered change resumes nothing twice.
 */
export function budgetResumeProcess(
  platform: ResumePlatform,
  concurrency: number,
): PartitionedHandler {
  return {
    name: BUDGET_RESUME_WORKER,
    categories: ['account', 'project'],
    types: ['AccountBudgetSet', 'ProjectSettingsChanged'],
    concurrency,
    async handle(event) {
      await resumeWaiting(platform, { accountId: event.metadata.accountId }, (article) =>
        keyedContext(event, BUDGET_RESUME_WORKER, `${event.id}:${article.id}`),
      );
    },
  };
}

/** A new month starts every budget afresh: what waited for last month's is resumed (looked at hourly). */
export const monthlyBudgetResume = (options: { everyMs?: number; tickMs?: number } = {}) =>
  periodicWorker({
    name: 'usage.monthlyResume',
    everyMs: options.everyMs ?? 3_600_000,
    tickMs: options.tickMs,
    failureMessage: "resuming articles that waited for last month's budget failed",
    async pass(platform: ResumePlatform & Pick<Platform, 'logger'>) {
      const month = monthOf(platform.clock.now());
      await resumeWaiting(
        platform,
        {},
        (article) => ({
          accountId: article.accountId,
          actor: { kind: 'system', worker: 'usage.monthlyResume' },
          correlationId: `month:${month}`,
          requestId: `month:${month}`,
          commandId: `usage.monthlyResume:${month}:${article.id}`,
        }),
        (article) => (article.waitingFor?.month ?? month) < month,
      );
    },
  });
