import type { ActiveArticle, DiffStats, Revision } from '../../../domain/articles/article.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { diffSummary } from '../../../domain/articles/diff.ts';
import { unaskedLoss } from '../../../domain/articles/revisionLoss.ts';
import { buildMdx, countWords, parseMdx } from '../../../mdx/mdx.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import { projectStream } from '../../../domain/projects/decide.ts';
import { runModelStep } from '../modelStep.ts';
import type { StepRun } from '../../../domain/articles/runs.ts';
import { budgetWait } from '../../usage/budgetGate.ts';
import { brandInputOf, pageInputsOf } from '../brand/brandInput.ts';
import { handEditedVersion } from '../../publishing/branchVersion.ts';
import { keyedContext } from '../../../consumers/commandContext.ts';
import { articleProjectOf } from './articleProject.ts';
import type { PipelineContext } from '../context.ts';
import { failureReason } from '../failure.ts';
import type { PartitionedHandler } from '../../../consumers/partitioned.ts';

export const REVISE_WORKER = 'pipeline.revise';

/** States in which a queued revision can no longer apply: the article's content is settled. */
const SETTLED = new Set(['merged', 'closed']);

/**
 * Applies queued revisions one at a time per article, oldest first: the model revises the body
 * (seeing the article's outline and the pages the instruction is about), the frontmatter stays,
 * and the new version is recorded with the model's summary, word count and diff statistics. An
 * open pull request's branch is read first, so edits made there are what the revision starts
 * from. A revision that loses most of the article unasked is not applied (domain/articles/revisionLoss.ts).
 * Keyed by revision id, so a revision is recorded once whichever event drove it.
 */
export function reviseProcess(ctx: PipelineContext): PartitionedHandler {
  const { platform } = ctx;

  async function apply(
    event: StoredEvent,
    article: ActiveArticle,
    revision: Revision,
    events: readonly StoredEvent[],
  ): Promise<void> {
    const context = (step: string) =>
      keyedContext(event, REVISE_WORKER, `${revision.revisionId}:${step}`);
    const fail = (reason: string, run?: StepRun) =>
      platform.commands.execute(
        articleStream,
        article.id,
        {
          type: 'FailRevision',
          revisionId: revision.revisionId,
          reason,
          run,
          at: platform.clock.now(),
        },
        context('fail'),
      );
    if (SETTLED.has(article.status) || !article.mdx) {
      await fail(
        article.mdx
          ? `The article was ${article.status} before this revision could apply; request a refresh of the published article instead.`
          : 'The article has no draft to revise yet; request the revision once it is a draft.',
      );
      return;
    }
    const { state: project } = await loadStream(
      platform.eventStore,
      projectStream,
      article.projectId,
    );
    if (project.status === 'none') {
      await fail("The article's project no longer exists.");
      return;
    }
    const { outcome: result, run } = await runModelStep(ctx, 'revision', async () => {
      const handEdited = await handEditedVersion(platform, article, events);
      const before = handEdited ?? article.mdx!;
      const { frontmatter, body } = parseMdx(before);
      const revised = await ctx.writer.reviseArticle({
        body,
        instruction: revision.instruction,
        brand: brandInputOf(project),
        outline: article.outline,
        pages: pageInputsOf(project.pages),
        topic: { title: article.title, keyword: article.keyword ?? '', brief: '' },
        model: ctx.modelFor(project.settings),
      });
      // The MDX parser behind these (~20 MB resident) loads with the first revision, not with a start (docs/memory.md).
      const [{ neutraliseMdx }, { assertInertMdx }, { onSiteLinks, qualityChecks }] =
        await Promise.all([
          import('../../../mdx/neutralise.ts'),
          import('../../../mdx/mdxGate.ts'),
          import('./quality.ts'),
        ]);
      const inert = neutraliseMdx(revised.body, body);
      const linked = onSiteLinks(inert.text, project);
      const mdx = buildMdx(frontmatter, linked.text);
      assertInertMdx(mdx, before);
      const checks = qualityChecks({
        article,
        project,
        mdx,
        title: frontmatter.title,
        claims: article.claims,
        removedLinks: linked.removed,
        neutralised: inert.neutralised,
      });
      const wordCount = countWords(inert.text);
      const loss = unaskedLoss({
        instruction: revision.instruction,
        wordsBefore: countWords(body),
        wordsAfter: wordCount,
        version: article.version,
      });
      const summary = handEdited
        ? `${revised.summary} Started from the pull request branch's version, which had edits made there; they are kept.`
        : revised.summary;
      return {
        model: revised.model,
        revised,
        summary,
        before,
        mdx,
        wordCount,
        neutralised: inert.neutralised,
        checks,
        loss,
        unchanged: linked.text.trim() === body.trim(),
      };
    });
    if (!result.ok) {
      ctx.logger.warn(
        { err: result.error, articleId: article.id, revisionId: revision.revisionId },
        'revision failed',
      );
      await fail(
        failureReason(
          'The revision',
          result.error,
          `POST /api/v1/articles/${article.id}/revise again`,
        ),
        run,
      );
      return;
    }
    const { revised, summary, before, mdx, wordCount, neutralised, checks, loss, unchanged } =
      result.value;
    if (loss) {
      await fail(loss, run);
      return;
    }
    // A version identical to the one before is noise in the history: the request is answered
    // (ArticleRevisionFailed carries the writer's answer) and the article keeps its version.
    if (unchanged) {
      await fail(
        `Nothing was changed, so no new version was made. ${summary.replace(/^Nothing was changed\.\s*/, '')}`.trim(),
        run,
      );
      return;
    }
    const { changed: _changed, ...diff } = diffSummary(before, mdx);
    await platform.commands.execute(
      articleStream,
      article.id,
      {
        type: 'RecordRevision',
        revisionId: revision.revisionId,
        version: article.version + 1,
        mdx,
        summary,
        wordCount,
        diff: diff satisfies DiffStats,
        neutralised,
        checks,
        generation: { provider: revised.provider, model: revised.model, usage: revised.usage },
        run,
        at: platform.clock.now(),
      },
      context('record'),
    );
  }

  return {
    name: REVISE_WORKER,
    categories: ['article'],
    types: ['ArticleRevisionRequested', 'ArticleResumed'],
    concurrency: ctx.concurrency,
    projectOf: articleProjectOf(platform),
    async handle(event) {
      const articleId = String(event.data.articleId);
      for (;;) {
        const { state, events } = await loadStream(platform.eventStore, articleStream, articleId);
        if (state.status === 'none' || state.pendingRevisions.length === 0) return;
        const waitingFor = await budgetWait(platform, {
          event,
          projectId: state.projectId,
          step: 'revision',
        });
        if (waitingFor) {
          await platform.commands.execute(
            articleStream,
            articleId,
            { type: 'WaitForBudget', waitingFor, at: platform.clock.now() },
            keyedContext(
              event,
              REVISE_WORKER,
              `${state.pendingRevisions[0].revisionId}:wait-budget:${event.id}`,
            ),
          );
          return;
        }
        await apply(event, state, state.pendingRevisions[0], events);
      }
    },
  };
}
