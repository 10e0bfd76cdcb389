import type { ProjectDoc } from '../../../projections/projects.ts';
import { requireFeature } from '../accounts/planLimits.ts';
import { AppError } from '../../core/errors.ts';
import { loadStream } from '../../eventstore/handleCommand.ts';
import type { AuthContext } from '../../http/auth.ts';
import { integrationsStream } from '../../domain/integrations/decide.ts';
import type { Platform } from '../../platform.ts';
import { articleStream } from '../../domain/articles/decide.ts';
import { publishingProfile } from '../publishing/site/sitePath.ts';
import { describeProblems } from '../publishing/site/siteFile.ts';

/**
 * How an approved draft reaches the site: a pull request, or a direct push where the project's
 * GitHub connection asks for one and the plan includes it. Publishing needs a GitHub connection,
 * and projects get one through PUT /projects/:id/integrations/github (the publishing feature);
 * a project without one is told how to connect it.
 */
export async function resolvePublishMode(
  platform: Platform,
  auth: AuthContext,
  project: ProjectDoc,
): Promise<'pr' | 'direct'> {
  const { state } = await loadStream(platform.eventStore, integrationsStream, project.id);
  if (!state.github) {
    throw new AppError(
      'invalid_state',
      `Project ${project.id} has no GitHub connection, so there is nowhere to publish. Connect a repository with ` +
        `PUT /api/v1/projects/${project.id}/integrations/github, then approve again.`,
    );
  }
  // The plan may have changed since the connection was saved.
  if (state.github.publishMode === 'direct') requireFeature(platform, auth, 'direct_push');
  return state.github.publishMode;
}

/**
 * Approving is refused (409, the article stays a draft) when its file cannot be committed as the
 * site expects it: a required field Inkstream cannot fill, a value the site's schema rejects. The
 * message names each field, what the site expects and the file and line that say so. A legacy
 * connection (no learned profile) publishes the fixed shape, as before. The publishing job checks
 * again, since the profile may change before it runs.
 */
export async function requireSiteFile(
  platform: Platform,
  projectId: string,
  articleId: string,
): Promise<void> {
  const connection = (await loadStream(platform.eventStore, integrationsStream, projectId)).state
    .github;
  if (!connection || !publishingProfile(connection)) return;
  const { state: article } = await loadStream(platform.eventStore, articleStream, articleId);
  if (article.status === 'none' || !article.mdx) return;
  // The Markdown toolchain behind the check loads with the first approval, not with a start (docs/memory.md).
  const { publicationProblems } = await import('../publishing/site/sitePublication.ts');
  const problems = publicationProblems(connection, {
    mdx: article.mdx,
    slug: article.slug ?? 'article',
    hasCover: article.cover !== null,
  });
  if (!problems.length) return;
  throw new AppError(
    'invalid_state',
    `The article cannot be committed as ${connection.owner}/${connection.repo} expects it, so it stays a draft: ${describeProblems(problems)} Correct the content profile with PATCH /api/v1/projects/${projectId}/integrations/github, or edit the article, then approve again.`,
    {
      details: problems.map((problem) => ({
        path: problem.field ?? 'file',
        message: problem.message,
      })),
    },
  );
}
