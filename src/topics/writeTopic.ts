import { articles, type ArticleDoc } from '../../projections/articles.ts';
import type { TopicDoc } from '../../projections/topics.ts';
import { requireArticleQuota } from '../accounts/planLimits.ts';
import { articleStream } from '../articles/decide.ts';
import { loadStream } from '../eventstore/handleCommand.ts';
import { applyAppended, commandContext } from '../http/resources.ts';
import type { RouteInput } from '../http/route.ts';
import { topicStream } from './decide.ts';
import { queueArticleCommand, type WrittenTopic } from './ensureArticleQueued.ts';

/**
 * Writing a topic: the plan's article quota first (402 before anything is written), then the
 * topic is marked written (409 if it cannot be), then the article is queued. A crash between
 * the two appends is repaired by the ensureArticleQueued consumer.
 */
export async function writeTopic(input: RouteInput<unknown, unknown, unknown>, topic: TopicDoc): Promise<ArticleDoc> {
  const { auth, services } = input;
  await requireArticleQuota(services, auth);
  const articleId = services.ids.next('art');
  const marked = await services.execute(topicStream, topic.id, {
    type: 'MarkTopicWritten', articleId, trigger: 'api', at: services.clock.now(),
  }, commandContext(input, 'topic'));
  const written = marked.events[0].data as WrittenTopic;
  const queued = await services.execute(articleStream, articleId, queueArticleCommand(written), commandContext(input, 'article'), { newStream: true });
  // The repair consumer may have queued it first; then the article's own stream is the answer.
  const events = queued.events.length > 0 ? queued.events : (await loadStream(services.eventStore, articleStream, articleId)).events;
  return applyAppended(articles, null, events)!;
}
