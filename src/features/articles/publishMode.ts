import type { ProjectDoc } from '../../../projections/projects.ts';
import { requireFeature } from '../accounts/planLimits.ts';
import { AppError } from '../../core/errors.ts';
import { loadStream } from '../../eventstore/handleCommand.ts';
import type { AuthContext } from '../../http/auth.ts';
import { integrationsStream } from '../../domain/integrations/decide.ts';
import type { Platform } from '../../platform.ts';

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
