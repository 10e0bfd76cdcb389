import { projectArticleCounts } from '../../../projections/projectArticleCounts.ts';
import { projects } from '../../../projections/projects.ts';
import { projectTopicCounts } from '../../../projections/projectTopicCounts.ts';
import { sitePages } from '../../../projections/sitePages.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { projectRoutes } from './api.ts';

/**
 * Projects: create, list, settings, pause and resume, delete (api.ts); the site's pages a crawl
 * found (for topic overlap); each project's articles and topics counted by status (counts.ts).
 */
export const projectsFeature: Feature = {
  name: 'projects',
  routes: projectRoutes,
  projections: projectionList(projects, sitePages, projectArticleCounts, projectTopicCounts),
};
