import type { ActiveArticle, Generation } from '../../../domain/articles/article.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import { fitText, PROMPT_BUDGET } from '../../../integrations/llm/promptBudget.ts';
import type { Generated, TopicInput } from '../../../integrations/llm/writer.ts';
import type { ActiveProject } from '../../../domain/projects/project.ts';
import { latestSearchMetrics, searchBrief } from '../../searchAnalytics/refreshContext.ts';
import { runModelStep } from '../modelStep.ts';
import { latestResearch, pendingStep } from './articleSteps.ts';
import { brandInputOf, pageInputsOf } from '../brand/brandInput.ts';
import { reactionContext } from '../../../consumers/commandContext.ts';
import { articleProjectOf } from './articleProject.ts';
import type { PipelineContext } from '../context.ts';
import { publishedArticles } from './publishedArticles.ts';
import { publishedVersion } from './publishedVersion.ts';
import { failureReason } from '../failure.ts';
import type { PartitionedHandler } from '../../../consumers/partitioned.ts';
import { waitForCrawl } from '../brand/waitForCrawl.ts';
import { withCorpusPages } from '../corpus/corpusPages.ts';
import { budgetWait } from '../../usage/budgetGate.ts';

export const WRITE_WORKER = 'pipeline.write';

/** The events that can move an article on; each recorded step appends the next one. */
const TRIGGERS = [
  'ArticleQueued',
  'ArticleRetried',
  'ArticleResearchStarted',
  'ArticleResearched',
  'ArticleRefreshRequested',
  'ArticleResumed',
];

/**
 * Only the newest trigger of a stream acts: an older one, redelivered after a crash, would act
 * on state a later trigger (also still to be delivered) is responsible for.
 */
function isLatestTrigger(event: StoredEvent, events: readonly StoredEvent[]): boolean {
  const latest = events.findLast((candidate) => TRIGGERS.includes(candidate.type));
  return latest?.id === event.id;
}

const generationOf = (result: Generated<object>): Generation => ({
  provider: result.provider,
  model: result.model,
  usage: result.usage,
});

/**
 * queued → researching → writing → draft, one recorded step per event: each event that can move
 * an article on (queued, research started, researched, retried, refresh requested) makes the
 * article take the step its stream says it waits for, and the recorded outcome triggers the next.
 */
export function writeProcess(ctx: PipelineContext): PartitionedHandler {
  const { platform } = ctx;
  const retry = (id: string) => `POST /api/v1/articles/${id}/retry to try again`;

  function topicInput(
    article: ActiveArticle,
    project: ActiveProject,
    events: readonly StoredEvent[],
    step: 'research' | 'write',
  ): TopicInput {
    const brief = fitText(article.brief ?? '', PROMPT_BUDGET.topicBrief);
    if (article.purpose !== 'refresh')
      return { title: article.title, keyword: article.keyword ?? '', brief };
    const search = latestSearchMetrics(events);
    const performance = search
      ? ` ${fitText(searchBrief(search), PROMPT_BUDGET.searchPerformance)}`
      : '';
    const published = article.mdx ? publishedVersion(article.mdx, step) : '';
    return {
      title: article.title,
      keyword: article.keyword ?? '',
      brief:
        `Refresh of a published article for ${project.name}. ${brief}${performance}${published}`.trim(),
    };
  }

  async function research(
    event: StoredEvent,
    article: ActiveArticle,
    project: ActiveProject,
    events: readonly StoredEvent[],
  ): Promise<void> {
    const { outcome: result, run } = await runModelStep(
      ctx,
      article.purpose === 'refresh' ? 'refresh_research' : 'research',
      () =>
        ctx.writer.researchArticle({
          topic: topicInput(article, project, events, 'research'),
          brand: brandInputOf(project),
          pages: pageInputsOf(project.pages),
          model: ctx.modelFor(project.settings),
        }),
    );
    const at = platform.clock.now();
    if (!result.ok) {
      ctx.logger.warn({ err: result.error, articleId: article.id }, 'research failed');
      await platform.commands.execute(
        articleStream,
        article.id,
        {
          type: 'FailStep',
          step: 'researching',
          reason: failureReason('Research', result.error, retry(article.id)),
          run,
          at,
        },
        reactionContext(event, WRITE_WORKER, 'fail-research'),
      );
      return;
    }
    const { outline, keyPoints, sources } = result.value;
    // The quality checks and the MDX parser behind them (~20 MB resident) load with the first research or draft, not with a start (docs/memory.md).
    const { evidenceOnPages } = await import('./quality.ts');
    const evidence = evidenceOnPages(result.value.evidence ?? [], project.pages);
    await platform.commands.execute(
      articleStream,
      article.id,
      {
        type: 'RecordResearch',
        outline,
        keyPoints,
        sources,
        evidence,
        generation: generationOf(result.value),
        run,
        at,
      },
      reactionContext(event, WRITE_WORKER, 'record-research'),
    );
  }

  async function write(
    event: StoredEvent,
    article: ActiveArticle,
    project: ActiveProject,
    events: readonly StoredEvent[],
  ): Promise<void> {
    const research = latestResearch(events) ?? {
      outline: article.outline,
      keyPoints: [],
      sources: article.sources,
    };
    const { outcome: result, run } = await runModelStep(
      ctx,
      article.purpose === 'refresh' ? 'refresh_draft' : 'draft',
      async () => {
        const draft = await ctx.writer.writeArticle({
          topic: topicInput(article, project, events, 'write'),
          brand: brandInputOf(project),
          research,
          pages: pageInputsOf(project.pages),
          publishedArticles: await publishedArticles(platform, project),
          model: ctx.modelFor(project.settings),
        });
        const generation = generationOf(draft);
        const { buildDraft } = await import('./draftMdx.ts');
        return {
          model: draft.model,
          generation,
          built: buildDraft({
            article,
            project,
            draft,
            generation,
            purpose: article.purpose,
            at: platform.clock.now(),
          }),
        };
      },
    );
    const at = platform.clock.now();
    if (!result.ok) {
      ctx.logger.warn({ err: result.error, articleId: article.id }, 'writing failed');
      await platform.commands.execute(
        articleStream,
        article.id,
        {
          type: 'FailStep',
          step: 'writing',
          reason: failureReason('Writing', result.error, retry(article.id)),
          run,
          at,
        },
        reactionContext(event, WRITE_WORKER, 'fail-write'),
      );
      return;
    }
    const { generation, built } = result.value;
    await platform.commands.execute(
      articleStream,
      article.id,
      {
        type: 'RecordDraft',
        version: article.version + 1,
        ...built,
        purpose: article.purpose,
        generation,
        run,
        at,
      },
      reactionContext(event, WRITE_WORKER, 'record-draft'),
    );
  }

  return {
    name: WRITE_WORKER,
    categories: ['article'],
    types: TRIGGERS,
    concurrency: ctx.concurrency,
    projectOf: articleProjectOf(platform),
    async handle(event) {
      const articleId = String(event.data.articleId);
      const { state, events } = await loadStream(platform.eventStore, articleStream, articleId);
      if (state.status === 'none' || !isLatestTrigger(event, events)) return;
      const step = pendingStep(state, events);
      if (step === null) return;
      const waitingFor = await budgetWait(platform, { event, projectId: state.projectId, step });
      if (waitingFor) {
        await platform.commands.execute(
          articleStream,
          articleId,
          { type: 'WaitForBudget', waitingFor, at: platform.clock.now() },
          reactionContext(event, WRITE_WORKER, 'wait-budget'),
        );
        return;
      }
      if (step === 'start') {
        await platform.commands.execute(
          articleStream,
          articleId,
          { type: 'StartResearch', at: platform.clock.now() },
          reactionContext(event, WRITE_WORKER, 'start-research'),
        );
        return;
      }
      const crawled = await waitForCrawl(ctx, state.projectId);
      if (!crawled) return;
      // The pages of the whole site most relevant to the article join the brand crawl's sample.
      const project = withCorpusPages(platform, crawled, state);
      if (step === 'research') await research(event, state, project, events);
      else await write(event, state, project, events);
    },
  };
}
