import type { ProjectDoc } from '../../projections/projects.ts';
import type { AuthContext } from '../http/auth.ts';
import { ownedDoc } from '../http/resources.ts';
import type { Services } from '../services.ts';

/** The caller's project, or 404 (another account's project does not exist for them). */
export const ownedProject = (input: { services: Services; auth: AuthContext }, projectId: string): Promise<ProjectDoc> =>
  ownedDoc<ProjectDoc>(input.services.readStore, 'projects', projectId, input.auth, 'project');
