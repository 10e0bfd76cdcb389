import { integrations } from '../../../projections/integrations.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { githubIntegrationRoutes } from './github/api.ts';
import { githubEventRoutes } from './github/eventsApi.ts';
import { githubProfileRoutes } from './github/profileApi.ts';
import { pullRequestReconciler } from './github/reconciler.ts';
import { postPublishHookRoutes } from './hook/api.ts';
import { postPublishHookCallRoutes } from './hook/callsApi.ts';
import { postPublishHookSender } from './hook/hookDelivery.ts';
import { publishingFeeder } from './jobs/feeder.ts';
import { publishingJobWorker } from './jobs/jobWorker.ts';
import { publishHandler } from './jobs/publish.ts';
import { syncRevisionHandler } from './jobs/syncRevision.ts';
import { buildWatcher } from './build/buildWatch.ts';
import { buildBodyHandler } from './build/buildBody.ts';
import { applyCorrectionHandler, proposeCorrectionHandler } from './build/buildCorrection.ts';
import { profileLearner } from './profile/profileLearner.ts';

/**
 * Publishing to the site's repository: the integrations page (GitHub connection, post-publish
 * hook) and the GitHub webhook receiver; in the background, the consumer that queues jobs
 * (jobs/feeder.ts), the worker that runs them (publish, sync a revision, call the hook), the
 * pull-request reconciler and the watcher of the site's build (build/).
 */
export const publishingFeature: Feature = {
  name: 'publishing',
  routes: [
    ...githubIntegrationRoutes,
    ...postPublishHookRoutes,
    ...postPublishHookCallRoutes,
    ...githubEventRoutes,
    ...githubProfileRoutes,
  ],
  projections: projectionList(integrations),
  background(platform) {
    const hooks = postPublishHookSender(platform);
    const worker = publishingJobWorker(
      {
        publish: publishHandler(platform),
        revision: syncRevisionHandler(platform),
        hook: hooks.handle,
        build: buildBodyHandler(platform),
        correct: proposeCorrectionHandler(platform),
        applyCorrection: applyCorrectionHandler(platform),
      },
      { onStop: hooks.close },
    );
    return {
      consumers: [publishingFeeder(platform), profileLearner(platform)],
      workers: [worker, pullRequestReconciler(), buildWatcher()],
    };
  },
};
