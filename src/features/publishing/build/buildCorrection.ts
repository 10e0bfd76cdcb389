import type { ActiveArticle } from '../../../domain/articles/article.ts';
import type { Build } from '../../../domain/articles/build.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import type { GitHubConnection } from '../../../domain/integrations/integrations.ts';
import { projectStream } from '../../../domain/projects/decide.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import type { FileToCommit } from '../../../integrations/github/port.ts';
import { UnsafeMdxError } from '../../../mdx/unsafeMdxError.ts';
import type { Platform } from '../../../platform.ts';
import { articleFiles } from '../articleFiles.ts';
import { committedSlug } from '../articleHistory.ts';
import { githubClients } from '../github/githubClients.ts';
import { decideOnFailure } from '../jobs/jobFailure.ts';
import { type JobDoc, jobContext, type JobOutcome } from '../jobs/jobs.ts';
import type { JobHandler } from '../jobs/jobWorker.ts';
import { refreshContentProfile } from '../profile/profileLearner.ts';
import { reportQuality } from '../reportQuality.ts';
import { SiteFileError } from '../site/siteFileError.ts';
import { REJECTS_INKSTREAM_FILE } from './readBuild.ts';

export const BUILD_CORRECTOR = 'publishing.buildCorrection';

const DONE: JobOutcome = { kind: 'done' };

/** A failed build whose failing annotations point at the file Inkstream committed. */
export const rejectsInkstreamFile = (build: Build | null | undefined): boolean =>
  !!build && build.state === 'failure' && !!build.reason?.startsWith(REJECTS_INKSTREAM_FILE);

/** The commit message of an applied correction: fixed words and Inkstream's own path, no repository text. */
export const correctionCommitMessage = (path: string): string =>
  `Correct ${path} for the site's build\n\nThe site's build rejected the file; it is rendered again with the content profile learned from the base branch.`;

type Open = ActiveArticle & {
  pr: NonNullable<ActiveArticle['pr']>;
  path: string;
  mdx: string;
  headSha: string;
};

const isOpen = (article: ActiveArticle): article is Open =>
  article.status === 'pr_open' &&
  !!article.pr &&
  !!article.path &&
  !!article.mdx &&
  !!article.headSha;

/** The connection's repository, and the article's post rendered in the site's shape as the profile now stands. */
async function rendered(
  platform: Platform,
  job: JobDoc,
  article: Open,
  events: readonly StoredEvent[],
  relearn: boolean,
): Promise<{ repo: ReturnType<typeof repositoryOf>; files: FileToCommit[] } | null> {
  const connection = (await loadStream(platform.eventStore, integrationsStream, article.projectId))
    .state.github;
  if (!connection) return null;
  const repo = repositoryOf(platform, job, connection);
  const profile = relearn
    ? await refreshContentProfile(platform, article.projectId, repo, (tree) =>
        jobContext(job, BUILD_CORRECTOR, `profile-${tree}`),
      )
    : null;
  const current = profile ? { ...connection, contentProfile: profile } : connection;
  const files = await articleFiles(
    article,
    article.mdx,
    current,
    { slug: committedSlug(events, article.path), path: article.path },
    { repo, branch: article.pr.branch, baseBranch: connection.baseBranch },
    platform.config.INKSTREAM_COVER_FONT,
  );
  return { repo, files };
}

function repositoryOf(platform: Platform, job: JobDoc, connection: GitHubConnection) {
  return githubClients(platform)
    .forConnection(connection, { accountId: job.accountId, projectId: job.projectId })
    .repository({ owner: connection.owner, repo: connection.repo });
}

const sameContent = (a: Buffer, b: Buffer | string): boolean =>
  a.equals(typeof b === 'string' ? Buffer.from(b, 'utf8') : b);

/**
 * After a build that rejects Inkstream's file: the profile is learned again (the site may have
 * changed its schema), the article rendered with it, and when the post differs from the file on
 * the pull request's branch a correction is proposed (one per head commit; the stream is read
 * first, so a re-run proposes nothing twice). With the project's `publishing.autoCorrect`, it is
 * asked to be applied at once. Nothing is committed here.
 */
export function proposeCorrectionHandler(platform: Platform): JobHandler {
  const log = platform.logger.child({ worker: BUILD_CORRECTOR });
  return async (job) => {
    const { state: article, events } = await loadStream(
      platform.eventStore,
      articleStream,
      job.articleId,
    );
    if (article.status === 'none' || !isOpen(article)) return DONE;
    if (article.build?.headSha !== article.headSha || !rejectsInkstreamFile(article.build))
      return DONE;
    let correction = article.buildCorrection;
    if (correction?.headSha !== article.headSha) {
      try {
        const found = await rendered(platform, job, article, events, true);
        if (!found) return DONE;
        const post = found.files.find((file) => file.path === article.path);
        const onBranch = await found.repo.getFile(article.path, article.pr.branch);
        if (!post || (onBranch && sameContent(onBranch.content, post.content))) {
          log.info(
            { articleId: article.id, headSha: article.headSha },
            'the build rejects the file, but the profile learned again renders the same file: nothing proposed',
          );
          return DONE;
        }
        const result = await platform.commands.execute(
          articleStream,
          article.id,
          {
            type: 'ProposeBuildCorrection',
            path: article.path,
            reason: `The site's content profile, learned again from the base branch, renders ${article.path} differently from the file on the pull request's branch.`,
            headSha: article.headSha,
            at: platform.clock.now(),
          },
          jobContext(job, BUILD_CORRECTOR, `propose-${article.headSha}`),
        );
        if (result.state.status === 'none') return DONE;
        correction = result.state.buildCorrection;
      } catch (error) {
        if (error instanceof SiteFileError || error instanceof UnsafeMdxError) {
          log.warn(
            { articleId: article.id, reason: error.message },
            "no correction proposed: the file rendered with the learned profile does not satisfy the site's profile",
          );
          return DONE;
        }
        const decision = decideOnFailure(
          error,
          job.attempts,
          `Proposing a correction for pull request #${article.pr.number}`,
        );
        if (decision.kind === 'retry') return decision;
        log.warn({ articleId: article.id, reason: decision.reason }, 'no correction proposed');
        return DONE;
      }
    }
    if (correction?.state !== 'proposed' || correction.headSha !== article.headSha) return DONE;
    const project = (await loadStream(platform.eventStore, projectStream, article.projectId)).state;
    if (project.status === 'none' || project.settings.publishing?.autoCorrect !== true) return DONE;
    await platform.commands.execute(
      articleStream,
      article.id,
      { type: 'ApplyBuildCorrection', auto: true, at: platform.clock.now() },
      jobContext(job, BUILD_CORRECTOR, `auto-apply-${article.headSha}`),
    );
    return DONE;
  };
}

/**
 * Commits the correction asked for: the article rendered again with the profile as it stands, to
 * the pull request's branch. The stream is read first (only an `applying` correction is
 * committed), and a branch whose head already holds exactly these files gets no new commit, so a
 * re-run after a kill -9 commits once and records once.
 */
export function applyCorrectionHandler(platform: Platform): JobHandler {
  const log = platform.logger.child({ worker: BUILD_CORRECTOR });
  return async (job) => {
    const { state: article, events } = await loadStream(
      platform.eventStore,
      articleStream,
      job.articleId,
    );
    if (article.status === 'none' || !isOpen(article)) return DONE;
    if (article.buildCorrection?.state !== 'applying') return DONE;
    try {
      const found = await rendered(platform, job, article, events, false);
      if (!found) return DONE;
      const commit = await found.repo.commitFiles({
        branch: article.pr.branch,
        message: correctionCommitMessage(article.path),
        files: found.files,
      });
      await reportQuality(platform, found.repo, commit.sha, article.checks, article.id);
      await platform.commands.execute(
        articleStream,
        article.id,
        {
          type: 'RecordBuildCorrectionApplied',
          path: article.path,
          commitSha: commit.sha,
          at: platform.clock.now(),
        },
        jobContext(job, BUILD_CORRECTOR, 'applied'),
      );
      return DONE;
    } catch (error) {
      if (error instanceof SiteFileError || error instanceof UnsafeMdxError) {
        log.warn(
          { articleId: article.id, reason: error.message },
          "correction not committed: the file does not satisfy the site's content profile",
        );
        return DONE;
      }
      const decision = decideOnFailure(
        error,
        job.attempts,
        `Committing the correction to pull request #${article.pr.number}`,
      );
      if (decision.kind === 'retry') return decision;
      log.warn({ articleId: article.id, reason: decision.reason }, 'correction not committed');
      return DONE;
    }
  };
}
