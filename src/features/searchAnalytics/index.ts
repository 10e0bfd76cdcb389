import { articlePublications } from '../../../projections/articlePublications.ts';
import { articleSearchMetrics } from '../../../projections/articleSearchMetrics.ts';
import { articleSearchSeries } from '../../../projections/articleSearchSeries.ts';
import { searchAnalytics } from '../../../projections/searchAnalytics.ts';
import { partitionedConsumer } from '../../consumers/partitioned.ts';
import { stopSwitch } from '../../consumers/worker.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { searchAnalyticsRoutes } from './api.ts';
import { articleSearchSeriesRoute } from './articleSeries.ts';
import { projectDecayRoute } from './decayApi.ts';
import { searchSyncScheduler } from './scheduler.ts';
import { searchSyncProcess } from './syncProcess.ts';

/**
 * Search analytics (Google Search Console): connect a property, sync clicks and impressions per
 * article (api.ts). In the background, the consumer that runs each requested sync and the daily
 * scheduler. Stopping the work ends any retry wait of a running sync, and the run is redone when
 * the work starts again.
 */
export const searchAnalyticsFeature: Feature = {
  name: 'searchAnalytics',
  routes: [...searchAnalyticsRoutes, articleSearchSeriesRoute, projectDecayRoute],
  projections: projectionList(
    searchAnalytics,
    articleSearchMetrics,
    articleSearchSeries,
    articlePublications,
  ),
  background(platform) {
    const stopping = stopSwitch('searchAnalytics.lifecycle');
    const logger = platform.logger.child({ component: 'searchAnalytics' });
    return {
      consumers: [partitionedConsumer(searchSyncProcess(platform, { stopping, logger }), platform)],
      workers: [stopping.worker, searchSyncScheduler()],
    };
  },
};
