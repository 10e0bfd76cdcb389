import { api, unwrap } from '../api/v1Client.ts';
import { useLiveReload } from '../live/useLiveChanges.ts';
import { pathTo } from '../navigation.ts';
import type { Page } from '../pageTypes.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { Link } from '../ui/Link.tsx';
import { useResource } from '../ui/useResource.ts';
import type { Me } from '../api/appClient.ts';
import { DecayFindings } from './DecayFindings.tsx';
import {
  ArticleCounts,
  CrawlState,
  PausedBadge,
  SiteLink,
  WriterState,
} from './projectFigures.tsx';

/** A project's first tab: the figures of its card, all article states, and the way to its other tabs. */
export function ProjectOverviewPage({
  me,
  projectId,
  tabs: allTabs,
}: {
  me: Me;
  projectId: string;
  tabs: readonly Page[];
}) {
  const loaded = useResource(
    () => unwrap(api.GET('/projects/{id}', { params: { path: { id: projectId } } })),
    projectId,
  );
  useLiveReload(
    () => void loaded.reload(),
    (change) => change.projectId === projectId && change.kind !== 'topic',
  );
  const project = loaded.data?.project;
  const tabs = allTabs.filter((page) => !page.roles || page.roles.includes(me.member.role));
  return (
    <main>
      <h1>{project ? project.name : 'Project'}</h1>
      <ErrorNote error={loaded.error} />
      {project && (
        <>
          <p className="site">
            <SiteLink url={project.websiteUrl} /> <PausedBadge paused={project.paused} />
          </p>
          <CrawlState crawl={project.crawl} />
          {project.writer && <WriterState writer={project.writer} />}
          <h2>Articles by state</h2>
          <ArticleCounts counts={project.articleCounts} all />
          <DecayFindings projectId={projectId} />
          {tabs.length > 0 && (
            <>
              <h2>More of this project</h2>
              <ul className="overview-links">
                {tabs.map((page) => (
                  <li key={page.path}>
                    <Link to={pathTo(page.path, { projectId })}>{page.title}</Link>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </main>
  );
}
