import type { ActiveArticle } from '../../../domain/articles/article.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { UnsafeMdxError } from '../../../mdx/unsafeMdxError.ts';
import { SiteFileError } from '../site/siteFileError.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import { GitHubError } from '../../../integrations/github/errors.ts';
import type { GitHubRepository } from '../../../integrations/github/port.ts';
import type { Platform } from '../../../platform.ts';
import { articleFiles } from '../articleFiles.ts';
import { chosenTarget, publishPurpose, publishTrigger } from '../articleHistory.ts';
import type { GitHubConnection } from '../../../domain/integrations/integrations.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { githubClients } from '../github/githubClients.ts';
import { decideOnFailure } from './jobFailure.ts';
import { jobContext, type JobDoc, type JobOutcome } from './jobs.ts';
import type { JobHandler } from './jobWorker.ts';
import { commitMessage, prTitle } from '../prText.ts';
import { pullRequestBody } from '../pullRequestBody.ts';
import { reportQuality } from '../reportQuality.ts';
import { choosePublishTarget, stillApplies, type PublishTarget } from './publishTarget.ts';
import { refreshContentProfile } from '../profile/profileLearner.ts';

export const PUBLISHER = 'publishing.publisher';

const DONE: JobOutcome = { kind: 'done' };

/**
 * publishing → pr_open (a branch, one commit with the MDX and cover, a pull request) or → merged
 * (one commit on the base branch). Every step is idempotent and the article's stream is read
 * first, so a job that runs again after a crash finds its branch, commit and pull request and only
 * records what is missing.
 */
export function publishHandler(platform: Platform): JobHandler {
  const retryHint = (articleId: string) =>
    `Then retry with POST /api/v1/articles/${articleId}/retry.`;

  /** The recorded target, or a new choice recorded now; null when the article stopped publishing meanwhile. */
  async function targetOf(
    job: JobDoc,
    article: ActiveArticle,
    connection: GitHubConnection,
    repo: GitHubRepository,
    purpose: 'publish' | 'refresh',
    events: readonly StoredEvent[],
  ): Promise<PublishTarget | null> {
    const mode = purpose === 'refresh' ? 'pr' : (article.publishMode ?? connection.publishMode);
    const choice = { settings: connection, article, purpose, mode, events } as const;
    const recorded = chosenTarget(events);
    if (recorded && stillApplies(recorded, choice)) return recorded;
    const target = await choosePublishTarget(repo, choice);
    const result = await platform.commands.execute(
      articleStream,
      article.id,
      { type: 'RecordPublishTarget', ...target, at: platform.clock.now() },
      jobContext(job, PUBLISHER, `target-${events.length}`),
    );
    return result.events.length ? target : null;
  }

  async function publish(
    job: JobDoc,
    article: ActiveArticle,
    connection: GitHubConnection,
    repo: GitHubRepository,
    purpose: 'publish' | 'refresh',
    events: readonly StoredEvent[],
  ) {
    const target = await targetOf(job, article, connection, repo, purpose, events);
    if (!target) return;
    const files = await articleFiles(
      article,
      article.mdx!,
      connection,
      { slug: target.slug, path: target.path },
      { repo, branch: target.branch ?? connection.baseBranch, baseBranch: connection.baseBranch },
      platform.config.INKSTREAM_COVER_FONT,
    );
    const message = commitMessage(article, purpose);
    if (target.branch === null) {
      const commit = await repo.commitFiles({ branch: connection.baseBranch, message, files });
      await platform.commands.execute(
        articleStream,
        article.id,
        {
          type: 'RecordMerged',
          commitSha: commit.sha,
          prUrl: null,
          path: target.path,
          mergedBy: null,
          at: platform.clock.now(),
        },
        jobContext(job, PUBLISHER, 'merged'),
      );
      return;
    }
    const baseHead = await repo.getBranchHead(connection.baseBranch);
    if (baseHead === null) {
      throw new GitHubError({
        code: 'branch_missing',
        status: 404,
        retryable: false,
        operation: `branch off ${connection.baseBranch}`,
        reason: `the base branch "${connection.baseBranch}" no longer exists in ${repo.owner}/${repo.repo}. Set the right one with PUT /api/v1/projects/${article.projectId}/integrations/github.`,
      });
    }
    await repo.createBranch(target.branch, baseHead);
    const commit = await repo.commitFiles({ branch: target.branch, message, files });
    const pull = await repo.createPullRequest({
      head: target.branch,
      base: connection.baseBranch,
      title: prTitle(article, purpose),
      body: pullRequestBody({
        article,
        mdx: article.mdx!,
        connection,
        path: target.path,
        slug: target.slug,
        purpose,
        events,
        committedCover: files.find((file) => file.path !== target.path)?.path ?? null,
      }),
    });
    await reportQuality(platform, repo, commit.sha, article.checks, article.id);
    await platform.commands.execute(
      articleStream,
      article.id,
      {
        type: 'RecordPullRequest',
        prNumber: pull.number,
        prUrl: pull.htmlUrl,
        branch: target.branch,
        commitSha: commit.sha,
        path: target.path,
        at: platform.clock.now(),
      },
      jobContext(job, PUBLISHER, 'pull-request'),
    );
  }

  return async (job) => {
    const { state: article, events } = await loadStream(
      platform.eventStore,
      articleStream,
      job.articleId,
    );
    if (article.status !== 'publishing' || publishTrigger(events)?.id !== job.cause.eventId)
      return DONE; // done, or a newer request's job
    const fail = (reason: string) =>
      platform.commands.execute(
        articleStream,
        article.id,
        {
          type: 'FailStep',
          step: 'publishing',
          reason: `${reason} ${retryHint(article.id)}`,
          at: platform.clock.now(),
        },
        jobContext(job, PUBLISHER, `fail-${job.attempts}`),
      );
    const connection = (
      await loadStream(platform.eventStore, integrationsStream, article.projectId)
    ).state.github;
    if (!connection) {
      await fail(
        `The project has no GitHub connection any more. Connect one with PUT /api/v1/projects/${article.projectId}/integrations/github.`,
      );
      return DONE;
    }
    if (!article.mdx) {
      await fail('The article has no draft to publish.');
      return DONE;
    }
    const repository = `${connection.owner}/${connection.repo}`;
    try {
      const repo = githubClients(platform)
        .forConnection(connection, { accountId: job.accountId, projectId: article.projectId })
        .repository({ owner: connection.owner, repo: connection.repo });
      // A base branch that changed since the profile was learned is learned again first, and the
      // file is committed in the shape that profile gives.
      const contentProfile = await refreshContentProfile(
        platform,
        article.projectId,
        repo,
        (tree) => jobContext(job, PUBLISHER, `profile-${tree}`),
      );
      const current = contentProfile ? { ...connection, contentProfile } : connection;
      await publish(job, article, current, repo, publishPurpose(events), events);
      return DONE;
    } catch (error) {
      if (error instanceof UnsafeMdxError) {
        // trying again would refuse the same file
        await fail(error.message.replace(/\.?$/, '.'));
        return DONE;
      }
      if (error instanceof SiteFileError) {
        // the site's profile changed since approval, or the file cannot satisfy it: nothing was committed
        await fail(
          `The file cannot be committed as ${repository} expects it: ${error.message} Correct the content profile (PATCH /api/v1/projects/${article.projectId}/integrations/github) or the article.`,
        );
        return DONE;
      }
      const decision = decideOnFailure(error, job.attempts, `Publishing to ${repository}`);
      if (decision.kind === 'retry') return decision;
      await fail(decision.reason.replace(/\.?$/, '.'));
      return DONE;
    }
  };
}
