import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import { MAX_TOPICS } from '../../../integrations/llm/writer.ts';
import { projectStream } from '../../../domain/projects/decide.ts';
import type { ActiveProject } from '../../../domain/projects/project.ts';
import { topicStream } from '../../../domain/topics/decide.ts';
import { DEFAULT_PRIORITY } from '../../../domain/topics/topic.ts';
import { attempt } from '../attempt.ts';
import { brandInputOf, pageInputsOf } from '../brand/brandInput.ts';
import { reactionContext } from '../../../consumers/commandContext.ts';
import type { PipelineContext } from '../context.ts';
import { corpusPageNames } from '../corpus/corpusPages.ts';
import { overlappingPage } from '../../../integrations/llm/topicDedupe.ts';
import { existingTopicsOf } from './existingTopics.ts';
import { failureReason } from '../failure.ts';
import type { PartitionedHandler } from '../../../consumers/partitioned.ts';
import { researchTopicId } from '../derivedIds.ts';
import { waitForCrawl } from '../brand/waitForCrawl.ts';

export const RESEARCH_WORKER = 'pipeline.research';
export const TOPICS_PER_RUN = 8;

/**
 * A topic-research run: the model suggests topics from the brand, the crawled pages and what the
 * project already has; each becomes a `suggested` topic whose id derives from the run, then the
 * run completes with their ids (what topics.suggested announces).
 */
export function researchProcess(ctx: PipelineContext): PartitionedHandler {
  const { platform } = ctx;

  /** Topics a crashed earlier attempt of this run already created: finish with those, no second model call. */
  async function createdBefore(runId: string): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < MAX_TOPICS; index++) {
      const id = researchTopicId(runId, index);
      const { state } = await loadStream(platform.eventStore, topicStream, id);
      if (state.status === 'none') break;
      ids.push(id);
    }
    return ids;
  }

  type Outcome =
    | { topicIds: string[]; provider: string; model: string | null }
    | { failed: string };

  async function suggest(
    event: StoredEvent,
    project: ActiveProject,
    runId: string,
  ): Promise<Outcome> {
    await platform.readModels.catchUp(5_000);
    const existingTopics = await existingTopicsOf(
      platform.readStore,
      project.id,
      project.pages,
      project.sitemapUrls,
    );
    const result = await attempt(
      () =>
        ctx.writer.suggestTopics({
          brand: brandInputOf(project),
          pages: pageInputsOf(project.pages),
          existingTopics,
          count: TOPICS_PER_RUN,
          model: ctx.modelFor(project.settings),
        }),
      ctx.signal,
    );
    if (!result.ok) {
      ctx.logger.warn({ err: result.error, projectId: project.id, runId }, 'topic research failed');
      return {
        failed: failureReason(
          'Topic research',
          result.error,
          `POST /api/v1/projects/${project.id}/topics/suggest to start a new run`,
        ),
      };
    }
    // A suggestion that repeats a page anywhere on the site (not only the brand crawl's sample) is dropped.
    const suggestions = result.value.topics.filter(
      (topic) => !overlappingPage(topic, corpusPageNames(platform, project.id, topic)),
    );
    if (suggestions.length === 0) {
      return {
        failed:
          'Topic research found no idea that is not already a topic or an article of this project. Add topics by hand, or re-crawl the site after it has new pages.',
      };
    }
    const at = platform.clock.now();
    const ids: string[] = [];
    for (const [index, topic] of suggestions.slice(0, MAX_TOPICS).entries()) {
      const topicId = researchTopicId(runId, index);
      await platform.commands.execute(
        topicStream,
        topicId,
        {
          type: 'CreateTopic',
          topic: {
            topicId,
            projectId: project.id,
            title: topic.title,
            keyword: topic.keyword || null,
            brief: topic.brief || null,
            status: 'suggested',
            scheduledFor: null,
            priority: DEFAULT_PRIORITY,
            source: 'research',
            runId,
            rationale: topic.rationale || null,
            at,
          },
        },
        reactionContext(event, RESEARCH_WORKER, `topic-${index}`),
      );
      ids.push(topicId);
    }
    return { topicIds: ids, provider: result.value.provider, model: result.value.model };
  }

  return {
    name: RESEARCH_WORKER,
    categories: ['project'],
    types: ['TopicResearchRequested'],
    concurrency: ctx.concurrency,
    async handle(event) {
      const { projectId, runId } = event.data as { projectId: string; runId: string };
      const running = (project: { status: string; research?: ActiveProject['research'] }) =>
        project.status !== 'none' &&
        project.research?.runId === runId &&
        project.research.status === 'running';
      const { state } = await loadStream(platform.eventStore, projectStream, projectId);
      if (!running(state)) return;
      const project = await waitForCrawl(ctx, projectId);
      if (!project || !running(project)) return;
      const before = await createdBefore(runId);
      const outcome: Outcome =
        before.length > 0
          ? {
              topicIds: before,
              provider: ctx.writer.provider,
              model: ctx.modelFor(project.settings) ?? null,
            }
          : await suggest(event, project, runId);
      const at = platform.clock.now();
      if ('topicIds' in outcome) {
        await platform.commands.execute(
          projectStream,
          projectId,
          { type: 'RecordResearchCompleted', runId, ...outcome, at },
          reactionContext(event, RESEARCH_WORKER, 'complete'),
        );
      } else {
        await platform.commands.execute(
          projectStream,
          projectId,
          { type: 'RecordResearchFailed', runId, reason: outcome.failed, at },
          reactionContext(event, RESEARCH_WORKER, 'fail'),
        );
      }
    },
  };
}
