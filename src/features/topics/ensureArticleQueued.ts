import { articleStream, type ArticleCommand } from '../../domain/articles/decide.ts';
import type { EventHandler } from '../../consumers/define.ts';
import type { Platform } from '../../platform.ts';
import type { TopicEvent } from '../../domain/topics/topic.ts';

export type WrittenTopic = Extract<TopicEvent, { type: 'TopicWritten' }>['data'];

export const ENSURE_ARTICLE_QUEUED = 'topics.ensureArticleQueued';

/** The article a written topic promises: the same command whether the API or the repair consumer issues it. */
export function queueArticleCommand(written: WrittenTopic): ArticleCommand {
  const { articleId, topicId, projectId, title, keyword, brief, trigger, at } = written;
  return {
    type: 'QueueArticle',
    articleId,
    topicId,
    projectId,
    title,
    keyword,
    brief,
    trigger,
    at,
  };
}

/**
 * POST /topics/:id/write appends TopicWritten, then ArticleQueued on another stream. If the process
 * dies in between, the topic is written but no article exists: this consumer queues it. When the
 * API got there first, QueueArticle decides nothing.
 */
export function ensureArticleQueued(platform: Platform): EventHandler {
  return {
    name: ENSURE_ARTICLE_QUEUED,
    categories: ['topic'],
    types: ['TopicWritten'],
    async handle(event) {
      const written = event.data as WrittenTopic;
      await platform.commands.execute(
        articleStream,
        written.articleId,
        queueArticleCommand(written),
        {
          accountId: event.metadata.accountId,
          actor: { kind: 'system', worker: ENSURE_ARTICLE_QUEUED },
          correlationId: event.metadata.correlationId,
          requestId: event.metadata.requestId,
          causationId: event.id,
          commandId: `${ENSURE_ARTICLE_QUEUED}:${event.id}`,
        },
      );
    },
  };
}
