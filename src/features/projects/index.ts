import { projects } from '../../../projections/projects.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { projectRoutes } from './api.ts';

/** Projects: create, list, settings, pause and resume, delete (api.ts). */
export const projectsFeature: Feature = {
  name: 'projects',
  routes: projectRoutes,
  projections: projectionList(projects),
};
