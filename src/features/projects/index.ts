import { projects } from '../../../projections/projects.ts';
import { sitePages } from '../../../projections/sitePages.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { projectRoutes } from './api.ts';
import { articleCountsConsumer } from './articleCounts.ts';

/** Projects: create, list, settings, pause and resume, delete (api.ts); the site's pages a crawl found (for topic overlap). */
export const projectsFeature: Feature = {
  name: 'projects',
  routes: projectRoutes,
  projections: projectionList(projects, sitePages),
  background: (platform) => ({ consumers: [articleCountsConsumer(platform)], workers: [] }),
};
