import { slugOfPath } from '../../../domain/articles/article.ts';
import { articleStream } from '../../../domain/articles/decide.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import type { Platform } from '../../../platform.ts';
import { publishPurpose } from '../articleHistory.ts';
import { githubClients } from '../github/githubClients.ts';
import { decideOnFailure } from '../jobs/jobFailure.ts';
import type { JobOutcome } from '../jobs/jobs.ts';
import type { JobHandler } from '../jobs/jobWorker.ts';
import { pullRequestBody } from '../pullRequestBody.ts';

const DONE: JobOutcome = { kind: 'done' };

/**
 * After the site's build changed, the pull request's description is written again from the
 * article as it is now (the same builder as when it was opened), so it shows the build. The same
 * body written twice changes nothing on GitHub: a re-run after a crash is harmless.
 */
export function buildBodyHandler(platform: Platform): JobHandler {
  const log = platform.logger.child({ worker: 'publishing.build' });
  return async (job) => {
    const { state: article, events } = await loadStream(
      platform.eventStore,
      articleStream,
      job.articleId,
    );
    if (article.status !== 'pr_open' || !article.pr || !article.path || !article.mdx) return DONE;
    const connection = (
      await loadStream(platform.eventStore, integrationsStream, article.projectId)
    ).state.github;
    if (!connection) return DONE;
    try {
      const repo = githubClients(platform)
        .forConnection(connection, { accountId: job.accountId, projectId: article.projectId })
        .repository({ owner: connection.owner, repo: connection.repo });
      await repo.updatePullRequestBody(
        article.pr.number,
        pullRequestBody({
          article,
          mdx: article.mdx,
          connection,
          path: article.path,
          slug: slugOfPath(article.path),
          purpose: publishPurpose(events),
          events,
        }),
      );
      return DONE;
    } catch (error) {
      const decision = decideOnFailure(
        error,
        job.attempts,
        `Showing the site build on pull request #${article.pr.number}`,
      );
      if (decision.kind === 'retry') return decision;
      log.warn(
        { articleId: article.id, reason: decision.reason },
        'site build not shown on the pull request',
      );
      return DONE;
    }
  };
}
