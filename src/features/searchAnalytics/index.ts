import type { Worker } from '../../app/background.ts';
import type { ConsumerDefinition } from '../../consumers/runner.ts';
import { partitionedConsumer } from '../../consumers/partitioned.ts';
import type { Platform } from '../../platform.ts';
import { searchAnalyticsRoutes } from './api.ts';
import { searchSyncScheduler } from './scheduler.ts';
import { searchSyncProcess } from './syncProcess.ts';

export { searchAnalyticsRoutes };

/** Aborted when the background work stops; a new signal when it starts again (the background lease regained). */
function stopSwitch() {
  let controller = new AbortController();
  return {
    get signal() { return controller.signal; },
    start() { if (controller.signal.aborted) controller = new AbortController(); },
    stop() { controller.abort(new Error('the background work is stopping')); },
  };
}

/**
 * Search analytics' background work: the consumer that runs each requested sync and the daily
 * scheduler. Stopping the workers (before the consumers stop) ends any retry wait of a running
 * sync, and the run is redone when the work starts again.
 */
export function searchAnalyticsJobs(platform: Platform): { consumers: ConsumerDefinition[]; workers: Worker[] } {
  const stopping = stopSwitch();
  const logger = platform.logger.child({ component: 'searchAnalytics' });
  const lifecycle: Worker = {
    name: 'searchAnalytics.lifecycle',
    async start() {
      stopping.start();
      return { stop: async () => stopping.stop() };
    },
  };
  return {
    consumers: [partitionedConsumer(searchSyncProcess(platform, { stopping, logger }), platform)],
    workers: [lifecycle, searchSyncScheduler()],
  };
}
