import type { Worker } from '../background.ts';
import type { ConsumerDefinition } from '../consumers/runner.ts';
import type { Services } from '../services.ts';
import { publishingFeeder } from './feeder.ts';
import { githubEventRoutes } from './githubEventsApi.ts';
import { githubIntegrationRoutes } from './githubApi.ts';
import { postPublishHookSender } from './hookDelivery.ts';
import { postPublishHookRoutes } from './hookApi.ts';
import { publishingJobWorker } from './jobWorker.ts';
import { publishHandler } from './publish.ts';
import { pullRequestReconciler } from './reconciler.ts';
import { syncRevisionHandler } from './syncRevision.ts';

/** The integrations page and the GitHub webhook receiver. */
export const publishingRoutes = [...githubIntegrationRoutes, ...postPublishHookRoutes, ...githubEventRoutes];

/** Publishing's background work: the consumer that queues jobs, the worker that runs them, the PR reconciler. */
export function publishingJobs(services: Services): { consumers: ConsumerDefinition[]; workers: Worker[] } {
  const hooks = postPublishHookSender(services);
  const worker = publishingJobWorker(
    { publish: publishHandler(services), revision: syncRevisionHandler(services), hook: hooks.handle },
    { onStop: hooks.close },
  );
  return { consumers: [publishingFeeder(services)], workers: [worker, pullRequestReconciler()] };
}
