import type { AccountDoc } from '../../../../projections/accounts.ts';
import { releaseSlot, takeSlot } from '../../accounts/planLimits.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { isAppError } from '../../../core/errors.ts';
import type { CommandContext } from '../../../eventstore/handleCommand.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { Platform } from '../../../platform.ts';
import { topicStream, type TopicCommand } from '../../../domain/topics/decide.ts';
import type { Topic } from '../../../domain/topics/topic.ts';
import { queueArticleCommand, type WrittenTopic } from '../../topics/ensureArticleQueued.ts';

export const SCHEDULER_WORKER = 'pipeline.scheduler';

/** Commands of one scheduler decision (a slot, a due topic): ids derived from `key`, so a rerun appends nothing new. */
export function schedulerContext(accountId: string, key: string, step: string): CommandContext {
  return {
    accountId,
    actor: { kind: 'system', worker: SCHEDULER_WORKER },
    correlationId: key,
    requestId: key,
    causationId: key,
    commandId: `${SCHEDULER_WORKER}:${key}:${step}`,
  };
}

/** What became of a scheduled write: `unavailable` when the topic can no longer be written (someone was faster). */
export type ScheduledWriteOutcome = 'written' | 'unavailable' | 'over_quota';

/**
 * Writes a topic on the scheduler's behalf, like POST /topics/:id/write: the article takes a slot
 * of the account's monthly quota, the topic is marked written (its state machine refuses a second
 * write; then the slot is given back), and the article is queued under an id the caller derived.
 */
export async function writeScheduledTopic(
  platform: Platform,
  input: {
    accountId: string;
    topicId: string;
    articleId: string;
    trigger: 'schedule' | 'cadence';
    key: string;
    at: string;
  },
): Promise<ScheduledWriteOutcome> {
  const { accountId, topicId, articleId, trigger, key, at } = input;
  const { state: topic } = await loadStream(platform.eventStore, topicStream, topicId);
  if (topic.status === 'none') return 'unavailable';
  let written: WrittenTopic;
  if (topic.status === 'written') {
    if (topic.articleId !== articleId) return 'unavailable';
    // Marked by an earlier run that died before queuing (its slot was taken before the mark): finish its work.
    written = {
      topicId,
      articleId,
      projectId: topic.projectId,
      title: topic.title,
      keyword: topic.keyword,
      brief: topic.brief,
      trigger,
      at,
    };
  } else {
    const mark: TopicCommand = { type: 'MarkTopicWritten', articleId, trigger, at };
    if (!canDecide(mark, topic)) return 'unavailable'; // before the slot: a topic that cannot be written costs none
    // The step names the topic and the tick: a slot given back can be taken again later under new event ids.
    const slot = await takeScheduledSlot(
      platform,
      accountId,
      articleId,
      at,
      schedulerContext(accountId, key, `slot:${topicId}@${at}`),
    );
    if (slot === 'over_quota') return 'over_quota';
    try {
      const marked = await platform.commands.execute(
        topicStream,
        topicId,
        mark,
        schedulerContext(accountId, key, 'topic'),
      );
      written = marked.events[0].data as WrittenTopic;
    } catch (error) {
      await releaseSlot(
        platform,
        slot,
        `the topic was not written: ${(error as Error).message}`,
        schedulerContext(accountId, key, `slot-release:${topicId}@${at}`),
      ).catch((releaseError) =>
        platform.logger.error(
          { err: releaseError, articleId },
          'an article slot could not be given back; it stays used this month',
        ),
      );
      if (isAppError(error) && error.code === 'invalid_state') return 'unavailable';
      throw error;
    }
  }
  await platform.commands.execute(
    articleStream,
    articleId,
    queueArticleCommand(written),
    schedulerContext(accountId, key, 'article'),
  );
  return 'written';
}

/** The account's plan as the read models know it (an account they do not know yet has no quota to apply). */
async function takeScheduledSlot(
  platform: Platform,
  accountId: string,
  articleId: string,
  at: string,
  context: CommandContext,
) {
  const account = await platform.readStore.get<AccountDoc>('accounts', accountId);
  if (!account) return null;
  try {
    return await takeSlot(
      platform,
      'article',
      { accountId, plan: account.plan, holderId: articleId, at },
      context,
    );
  } catch (error) {
    if (isAppError(error) && error.code === 'payment_required') return 'over_quota' as const;
    throw error;
  }
}

function canDecide(command: TopicCommand, state: Topic): boolean {
  try {
    topicStream.decide(command, state);
    return true;
  } catch (error) {
    if (isAppError(error) && error.code === 'invalid_state') return false;
    throw error;
  }
}
