import { articles } from '../../../projections/articles.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { articleRoutes } from './api.ts';
import { coverRoutes } from './coverApi.ts';

/** Articles: read, list, revise, approve, refresh, retry (api.ts), and their covers (coverApi.ts). */
export const articlesFeature: Feature = {
  name: 'articles',
  routes: [...articleRoutes, ...coverRoutes],
  projections: projectionList(articles),
};
