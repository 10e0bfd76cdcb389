import type { Worker } from '../../app/background.ts';
import type { ConsumerDefinition } from '../../consumers/runner.ts';
import type { Platform } from '../../platform.ts';
import { publishingFeeder } from './jobs/feeder.ts';
import { githubEventRoutes } from './github/eventsApi.ts';
import { githubIntegrationRoutes } from './github/api.ts';
import { postPublishHookSender } from './hook/hookDelivery.ts';
import { postPublishHookRoutes } from './hook/api.ts';
import { publishingJobWorker } from './jobs/jobWorker.ts';
import { publishHandler } from './jobs/publish.ts';
import { pullRequestReconciler } from './github/reconciler.ts';
import { syncRevisionHandler } from './jobs/syncRevision.ts';

/** The integrations page and the GitHub webhook receiver. */
export const publishingRoutes = [...githubIntegrationRoutes, ...postPublishHookRoutes, ...githubEventRoutes];

/** Publishing's background work: the consumer that queues jobs, the worker that runs them, the PR reconciler. */
export function publishingJobs(platform: Platform): { consumers: ConsumerDefinition[]; workers: Worker[] } {
  const hooks = postPublishHookSender(platform);
  const worker = publishingJobWorker(
    { publish: publishHandler(platform), revision: syncRevisionHandler(platform), hook: hooks.handle },
    { onStop: hooks.close },
  );
  return { consumers: [publishingFeeder(platform)], workers: [worker, pullRequestReconciler()] };
}
