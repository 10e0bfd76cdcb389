import type { Me } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useResource } from '../ui/useResource.ts';
import { GitHubSection } from './GitHubSection.tsx';
import { HookSection } from './HookSection.tsx';
import { SearchSection } from './SearchSection.tsx';

/** A project's integrations: GitHub, the post-publish hook, search analytics. A viewer sees them and changes nothing. */
export function IntegrationsPage({ me, projectId }: { me: Me; projectId: string }) {
  const project = useResource(
    () => unwrap(api.GET('/projects/{id}', { params: { path: { id: projectId } } })),
    projectId,
  );
  const canWrite = me.member.role !== 'viewer';
  return (
    <main className="integrations">
      <h1>Integrations{project.data ? ` of ${project.data.project.name}` : ''}</h1>
      <ErrorNote error={project.error} />
      {!canWrite && (
        <p className="note">
          Your role is viewer: you can see the integrations but not change them.
        </p>
      )}
      {project.data && (
        <>
          <GitHubSection projectId={projectId} canWrite={canWrite} />
          <HookSection projectId={projectId} canWrite={canWrite} />
          <SearchSection projectId={projectId} canWrite={canWrite} />
        </>
      )}
    </main>
  );
}
