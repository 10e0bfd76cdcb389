import type { Me } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { useLiveReload } from '../live/useLiveChanges.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useResource } from '../ui/useResource.ts';
import { CreateProjectForm } from './CreateProjectForm.tsx';
import { ProjectCard } from './ProjectCard.tsx';

/** The most projects one page shows (the API's largest page). */
const PAGE = 200;

/** Every project of the account as a card, kept current by the live stream; a form to add one. */
export function ProjectsPage({ me }: { me: Me }) {
  const projects = useResource(
    () => unwrap(api.GET('/projects', { params: { query: { limit: PAGE } } })),
    'projects',
  );
  // Any project, crawl or article change may move a card's figures.
  useLiveReload(
    () => void projects.reload(),
    (change) => change.kind !== 'topic',
  );
  const list = projects.data?.projects ?? [];
  return (
    <main className="wide">
      <h1>Projects</h1>
      {me.member.role !== 'viewer' && (
        <CreateProjectForm onCreated={() => void projects.reload()} />
      )}
      <ErrorNote error={projects.error} />
      {projects.data && list.length === 0 && (
        <p>No projects yet: add your site above, and Inkstream crawls it to learn your brand.</p>
      )}
      <ul className="project-cards" aria-busy={projects.loading && !projects.data}>
        {list.map((project) => (
          <ProjectCard key={project.id} project={project} />
        ))}
      </ul>
      {projects.data?.nextCursor && <p>Showing the newest {PAGE} projects.</p>}
    </main>
  );
}
