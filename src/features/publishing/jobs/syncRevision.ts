import type { ActiveArticle } from '../../../domain/articles/article.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { UnsafeMdxError } from '../../../mdx/unsafeMdxError.ts';
import { SiteFileError } from '../site/siteFileError.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { Platform } from '../../../platform.ts';
import { articleFiles } from '../articleFiles.ts';
import { committedSlug, publishPurpose, revisionRecord } from '../articleHistory.ts';
import { pullRequestBody } from '../pullRequestBody.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { githubClients } from '../github/githubClients.ts';
import { decideOnFailure } from './jobFailure.ts';
import { jobContext, type JobDoc, type JobOutcome } from './jobs.ts';
import type { JobHandler } from './jobWorker.ts';
import { reportQuality } from '../reportQuality.ts';
import {
  revisionComment,
  revisionCommitMessage,
  revisionMarker,
  revisionRefusedComment,
} from '../prText.ts';

export const REVISION_COMMITTER = 'publishing.revisions';

const DONE: JobOutcome = { kind: 'done' };
/** A revision that lands while the pull request is being opened waits for it, this long at a time. */
const WAIT_FOR_PULL_REQUEST_MS = 2_000;
const MAX_WAITS = 150;

/**
 * A revision of an article whose pull request is open (asked for in a PR comment or through the
 * API): the article's current MDX is committed to the PR branch and the PR gets a comment saying
 * what changed, its description is rewritten for the new version, then ArticleRevisionCommitted is recorded. The comment carries the revision's
 * marker and is looked for before posting, so a re-run after a crash neither commits nor comments twice.
 */
export function syncRevisionHandler(platform: Platform): JobHandler {
  const log = platform.logger.child({ worker: REVISION_COMMITTER });

  /** A refused revision of an open pull request is answered there once (its marker is looked for first). */
  async function answerRefused(
    job: JobDoc,
    article: ActiveArticle,
    refused: Parameters<typeof revisionRefusedComment>[0],
  ): Promise<JobOutcome> {
    if (article.status !== 'pr_open' || !article.pr) return DONE;
    const connection = (
      await loadStream(platform.eventStore, integrationsStream, article.projectId)
    ).state.github;
    if (!connection) return DONE;
    try {
      const repo = githubClients(platform)
        .forConnection(connection, { accountId: job.accountId, projectId: article.projectId })
        .repository({ owner: connection.owner, repo: connection.repo });
      const marker = revisionMarker(refused.revisionId);
      if (
        !(await repo.listIssueComments(article.pr.number)).some((comment) =>
          comment.body.includes(marker),
        )
      ) {
        await repo.createIssueComment(article.pr.number, revisionRefusedComment(refused));
      }
      return DONE;
    } catch (error) {
      const decision = decideOnFailure(
        error,
        job.attempts,
        `Answering refused revision ${refused.revisionId} on pull request #${article.pr.number}`,
      );
      if (decision.kind === 'retry') return decision;
      log.warn(
        { articleId: article.id, revisionId: refused.revisionId, reason: decision.reason },
        'refused revision not answered on the pull request',
      );
      return DONE;
    }
  }

  return async (job) => {
    const revisionId = job.revisionId!;
    const { state: article, events } = await loadStream(
      platform.eventStore,
      articleStream,
      job.articleId,
    );
    if (article.status === 'none') return DONE;
    const { requested, revised, failed, committed } = revisionRecord(events, revisionId);
    if (requested && failed && !revised)
      return answerRefused(job, article, {
        revisionId,
        instruction: requested.instruction,
        source: requested.source,
        reason: failed.reason,
      });
    if (!revised || !requested || committed) return DONE;
    if (article.status === 'publishing') {
      return job.attempts < MAX_WAITS
        ? {
            kind: 'retry',
            afterMs: WAIT_FOR_PULL_REQUEST_MS,
            error: 'waiting for the pull request to be opened',
          }
        : DONE;
    }
    // A draft carries the revision into its first commit; a merged or closed article is settled.
    if (article.status !== 'pr_open' || !article.pr || !article.path || !article.mdx) return DONE;
    const connection = (
      await loadStream(platform.eventStore, integrationsStream, article.projectId)
    ).state.github;
    if (!connection) {
      log.warn(
        { articleId: article.id, revisionId },
        'revision not committed: the project has no GitHub connection any more',
      );
      return DONE;
    }
    const pr = article.pr;
    try {
      const repo = githubClients(platform)
        .forConnection(connection, { accountId: job.accountId, projectId: article.projectId })
        .repository({ owner: connection.owner, repo: connection.repo });
      const files = await articleFiles(
        article,
        article.mdx,
        connection,
        { slug: committedSlug(events, article.path), path: article.path },
        { repo, branch: pr.branch, baseBranch: connection.baseBranch },
        platform.config.INKSTREAM_COVER_FONT,
      );
      const commit = await repo.commitFiles({
        branch: pr.branch,
        message: revisionCommitMessage(article, revisionId, revised.summary),
        files,
      });
      await reportQuality(platform, repo, commit.sha, article.checks, article.id);
      await repo.updatePullRequestBody(
        pr.number,
        pullRequestBody({
          article,
          mdx: article.mdx,
          connection,
          path: article.path,
          slug: committedSlug(events, article.path),
          purpose: publishPurpose(events),
          events,
          committedCover: files.find((file) => file.path !== article.path)?.path ?? null,
        }),
      );
      const marker = revisionMarker(revisionId);
      const answered = (await repo.listIssueComments(pr.number)).some((comment) =>
        comment.body.includes(marker),
      );
      if (!answered) {
        await repo.createIssueComment(
          pr.number,
          revisionComment({
            revisionId,
            instruction: requested.instruction,
            source: requested.source,
            summary: revised.summary,
            diff: revised.diff,
            version: revised.version,
            commitSha: commit.sha,
            committed: commit.created,
          }),
        );
      }
      await platform.commands.execute(
        articleStream,
        article.id,
        {
          type: 'RecordRevisionCommitted',
          revisionId,
          commitSha: commit.sha,
          at: platform.clock.now(),
        },
        jobContext(job, REVISION_COMMITTER, 'committed'),
      );
      return DONE;
    } catch (error) {
      if (error instanceof UnsafeMdxError || error instanceof SiteFileError) {
        log.warn(
          { articleId: article.id, revisionId, reason: error.message },
          error instanceof SiteFileError
            ? "revision not committed: the file does not satisfy the site's content profile"
            : 'revision not committed: the MDX gate refused the file',
        );
        return DONE;
      }
      const decision = decideOnFailure(
        error,
        job.attempts,
        `Committing revision ${revisionId} to pull request #${pr.number}`,
      );
      if (decision.kind === 'retry') return decision;
      // The article keeps the revision; the next one committed to the branch carries it too.
      log.warn(
        { articleId: article.id, revisionId, reason: decision.reason },
        'revision not committed to the pull request',
      );
      return DONE;
    }
  };
}
