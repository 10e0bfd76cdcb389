import type { Feature } from '../feature.ts';
import { auditRoutes } from './api.ts';

/** An article's history replayed from its stream: timeline, versions, diffs, the article as it was (api.ts). */
export const auditFeature: Feature = {
  name: 'audit',
  routes: auditRoutes,
  projections: [],
};
