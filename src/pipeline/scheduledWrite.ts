import type { AccountDoc } from '../../projections/accounts.ts';
import { monthOf } from '../accounts/planLimits.ts';
import { articleStream } from '../articles/decide.ts';
import { isAppError } from '../core/errors.ts';
import type { CommandContext } from '../eventstore/handleCommand.ts';
import { loadStream } from '../eventstore/handleCommand.ts';
import type { Services } from '../services.ts';
import { topicStream } from '../topics/decide.ts';
import { queueArticleCommand, type WrittenTopic } from '../topics/ensureArticleQueued.ts';

export const SCHEDULER_WORKER = 'pipeline.scheduler';

/** Commands of one scheduler decision (a slot, a due topic): ids derived from `key`, so a rerun appends nothing new. */
export function schedulerContext(accountId: string, key: string, step: string): CommandContext {
  return {
    accountId, actor: { kind: 'system', worker: SCHEDULER_WORKER },
    correlationId: key, requestId: key, causationId: key, commandId: `${SCHEDULER_WORKER}:${key}:${step}`,
  };
}

/** Whether the account may queue another article this month (the scheduler skips, the API answers 402). */
export async function withinArticleQuota(services: Services, accountId: string, at: string): Promise<boolean> {
  const account = await services.readStore.get<AccountDoc>('accounts', accountId);
  const limit = account ? services.plans[account.plan]?.articlesPerMonth : null;
  if (limit === null || limit === undefined) return true;
  const count = await services.readStore.count('articles', { accountId, createdMonth: monthOf(at) });
  return count < limit;
}

/**
 * Writes a topic on the scheduler's behalf, like POST /topics/:id/write: the topic is marked
 * written (its state machine refuses a second write), then the article is queued under an id the
 * caller derived. Returns false when the topic can no longer be written (someone was faster).
 */
export async function writeScheduledTopic(services: Services, input: {
  accountId: string; topicId: string; articleId: string; trigger: 'schedule' | 'cadence'; key: string; at: string;
}): Promise<boolean> {
  const { accountId, topicId, articleId, trigger, key, at } = input;
  const { state: topic } = await loadStream(services.eventStore, topicStream, topicId);
  if (topic.status === 'none') return false;
  let written: WrittenTopic;
  if (topic.status === 'written') {
    if (topic.articleId !== articleId) return false;
    // Marked by an earlier run that died before queuing: finish its work.
    written = { topicId, articleId, projectId: topic.projectId, title: topic.title, keyword: topic.keyword, brief: topic.brief, trigger, at };
  } else {
    try {
      const marked = await services.execute(topicStream, topicId, { type: 'MarkTopicWritten', articleId, trigger, at },
        schedulerContext(accountId, key, 'topic'));
      written = marked.events[0].data as WrittenTopic;
    } catch (error) {
      if (isAppError(error) && error.code === 'invalid_state') return false;
      throw error;
    }
  }
  await services.execute(articleStream, articleId, queueArticleCommand(written), schedulerContext(accountId, key, 'article'));
  return true;
}
