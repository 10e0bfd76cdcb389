import type { Worker } from '../background.ts';
import type { ConsumerDefinition } from '../consumers/runner.ts';
import { partitionedConsumer } from '../pipeline/partitioned.ts';
import type { Services } from '../services.ts';
import { searchAnalyticsRoutes } from './api.ts';
import { searchSyncScheduler } from './scheduler.ts';
import { searchSyncProcess } from './syncProcess.ts';

export { searchAnalyticsRoutes };

/**
 * Search analytics' background work: the consumer that runs each requested sync and the daily
 * scheduler. Stopping the workers (before the consumers stop) ends any retry wait of a running sync.
 */
export function searchAnalyticsJobs(services: Services): { consumers: ConsumerDefinition[]; workers: Worker[] } {
  const stopping = new AbortController();
  const logger = services.logger.child({ component: 'searchAnalytics' });
  const lifecycle: Worker = { name: 'searchAnalytics.lifecycle', start: async () => ({ stop: async () => stopping.abort(new Error('the server is stopping')) }) };
  return {
    consumers: [partitionedConsumer(searchSyncProcess(services, { signal: stopping.signal, logger }), services.readStore)],
    workers: [lifecycle, searchSyncScheduler()],
  };
}
