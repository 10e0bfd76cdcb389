import { articleNames } from '../../../projections/articleNames.ts';
import { topics } from '../../../projections/topics.ts';
import { eventHandlerConsumer } from '../../consumers/define.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { topicRoutes } from './api.ts';
import { ensureArticleQueued } from './ensureArticleQueued.ts';

/** Topics: suggest, add, approve, reject, schedule, write (api.ts; writeTopic.ts for POST /topics/:id/write). */
export const topicsFeature: Feature = {
  name: 'topics',
  routes: topicRoutes,
  projections: projectionList(topics, articleNames),
  background: (platform) => ({
    consumers: [eventHandlerConsumer(ensureArticleQueued(platform), platform.readStore)],
    workers: [],
  }),
};
