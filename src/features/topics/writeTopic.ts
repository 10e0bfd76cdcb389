import { articles, type ArticleDoc } from '../../../projections/articles.ts';
import type { TopicDoc } from '../../../projections/topics.ts';
import { releaseSlot, takeSlot } from '../accounts/planLimits.ts';
import { articleStream } from '../../domain/articles/decide.ts';
import { loadStream } from '../../eventstore/handleCommand.ts';
import { applyAppended, commandContext } from '../../http/resources.ts';
import type { RouteInput } from '../../http/route.ts';
import { topicStream, type TopicCommand } from '../../domain/topics/decide.ts';
import { queueArticleCommand, type WrittenTopic } from './ensureArticleQueued.ts';

/**
 * Writing a topic: a topic that cannot be written is 409 before anything else; then the article
 * takes a slot of the month's quota (402 before anything is written), the topic is marked written
 * (a request that loses a race for it gets 409 and gives the slot back), and the article is queued.
 * A crash between the two appends is repaired by the ensureArticleQueued consumer; a crash
 * between taking the slot and marking the topic leaves that one slot used.
 */
export async function writeTopic(
  input: RouteInput<unknown, unknown, unknown>,
  topic: TopicDoc,
): Promise<ArticleDoc> {
  const { auth, platform } = input;
  const articleId = platform.ids.next('art');
  const at = platform.clock.now();
  const mark: TopicCommand = { type: 'MarkTopicWritten', articleId, trigger: 'api', at };
  // Decided once on the log's state without appending: a written topic costs no slot (and no ledger events).
  topicStream.decide(mark, (await loadStream(platform.eventStore, topicStream, topic.id)).state);

  const slot = await takeSlot(
    platform,
    'article',
    { accountId: auth.accountId, plan: auth.plan, holderId: articleId, at },
    commandContext(input, `slot:${articleId}`),
  );
  let written: WrittenTopic;
  try {
    const marked = await platform.commands.execute(
      topicStream,
      topic.id,
      mark,
      commandContext(input, 'topic'),
    );
    written = marked.events[0].data as WrittenTopic;
  } catch (error) {
    await releaseSlot(
      platform,
      slot,
      `the topic was not written: ${(error as Error).message}`,
      commandContext(input, `slot-release:${articleId}`),
    ).catch((releaseError) =>
      platform.logger.error(
        { err: releaseError, articleId },
        'an article slot could not be given back; it stays used this month',
      ),
    );
    throw error;
  }
  const queued = await platform.commands.execute(
    articleStream,
    articleId,
    queueArticleCommand(written),
    commandContext(input, 'article'),
    { newStream: true },
  );
  // The repair consumer may have queued it first; then the article's own stream is the answer.
  const events =
    queued.events.length > 0
      ? queued.events
      : (await loadStream(platform.eventStore, articleStream, articleId)).events;
  return applyAppended(articles, null, events)!;
}
