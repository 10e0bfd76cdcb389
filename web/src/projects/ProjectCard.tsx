import { Link } from '../ui/Link.tsx';
import {
  ArticleCounts,
  CrawlState,
  PausedBadge,
  SiteLink,
  type Project,
} from './projectFigures.tsx';

/** One project on the Projects page: its site, crawl, paused or not, and articles by state. */
export function ProjectCard({ project }: { project: Project }) {
  return (
    <li className="project-card" aria-labelledby={`project-${project.id}`}>
      <h2 id={`project-${project.id}`}>
        <Link to={`/projects/${project.id}`}>{project.name}</Link>
      </h2>
      <p className="site">
        <SiteLink url={project.websiteUrl} /> <PausedBadge paused={project.paused} />
      </p>
      <CrawlState crawl={project.crawl} />
      <ArticleCounts counts={project.articleCounts} />
    </li>
  );
}
