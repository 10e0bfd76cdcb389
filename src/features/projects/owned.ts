import type { ProjectDoc } from '../../../projections/projects.ts';
import { AppError } from '../../core/errors.ts';
import type { AuthContext } from '../../http/auth.ts';
import type { Consistency } from '../../http/consistency.ts';
import { ownedDoc } from '../../http/resources.ts';
import type { Platform } from '../../platform.ts';

/** The caller's project, or 404 (another account's project does not exist for them). */
export const ownedProject = (
  input: { platform: Platform; auth: AuthContext },
  projectId: string,
): Promise<ProjectDoc> =>
  ownedDoc<ProjectDoc>(input.platform.readStore, 'projects', projectId, input.auth, 'project');

/** Beyond this many projects the remembered owners start over. */
export const PROJECT_OWNERS_REMEMBERED = 100_000;

// A project's account is set when it is created and never changes, and projects are never
// deleted: an owner once read is known for good, with no need to wait for the read models.
const ownersByPlatform = new WeakMap<Platform, Map<string, string>>();

/**
 * 404 unless the project exists and is the caller's, as ownedProject, for a handler that needs
 * nothing else of it: the read models are waited for and read only for a project not seen before.
 */
export async function requireOwnedProject(
  input: { platform: Platform; auth: AuthContext; consistency: Consistency },
  projectId: string,
): Promise<void> {
  let owners = ownersByPlatform.get(input.platform);
  if (!owners) ownersByPlatform.set(input.platform, (owners = new Map()));
  let owner = owners.get(projectId);
  if (owner === undefined) {
    await input.consistency.readModelsCurrent();
    owner = (await input.platform.readStore.get<ProjectDoc>('projects', projectId))?.accountId;
    if (owner !== undefined) {
      if (owners.size >= PROJECT_OWNERS_REMEMBERED) owners.clear();
      owners.set(projectId, owner);
    }
  }
  if (owner !== input.auth.accountId)
    throw new AppError('not_found', `No project ${projectId} in this account.`);
}
