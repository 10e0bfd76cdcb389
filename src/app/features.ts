import type { Feature, BackgroundWork } from '../features/feature.ts';
import { accountsFeature } from '../features/accounts/index.ts';
import { articlesFeature } from '../features/articles/index.ts';
import { liveFeature } from '../features/live/index.ts';
import { auditFeature } from '../features/audit/index.ts';
import { pipelineFeature, type PipelineOptions } from '../features/pipeline/index.ts';
import { projectsFeature } from '../features/projects/index.ts';
import { publishingFeature } from '../features/publishing/index.ts';
import { searchAnalyticsFeature } from '../features/searchAnalytics/index.ts';
import { topicsFeature } from '../features/topics/index.ts';
import { usageFeature } from '../features/usage/index.ts';
import { webhooksFeature } from '../features/webhooks/index.ts';
import { projectionUpgradeWorker } from '../consumers/projectionUpgrade.ts';
import type { Route } from '../http/route.ts';
import type { Platform } from '../platform.ts';
import type { Projection } from '../readstore/projection.ts';
import { retentionWorker } from './retention.ts';

export type FeatureOptions = { pipeline?: PipelineOptions };

/**
 * Every feature, in order: routes are matched and read models applied in this order. Adding a
 * feature is one line here and a folder under src/features/ with an index.ts (features/feature.ts).
 */
export function features(options: FeatureOptions = {}): readonly Feature[] {
  return [
    accountsFeature,
    projectsFeature,
    pipelineFeature(options.pipeline),
    topicsFeature,
    articlesFeature,
    auditFeature,
    webhooksFeature,
    publishingFeature,
    searchAnalyticsFeature,
    usageFeature,
    liveFeature,
  ];
}

/** Every endpoint of /api/v1. */
export const allRoutes: readonly Route[] = features().flatMap((feature) => feature.routes);

/** Every read model, in the order they are applied. */
export const allProjections: readonly Projection[] = features().flatMap(
  (feature) => feature.projections,
);

/**
 * The background work beside the projections: each feature's consumers (log-driven) and workers
 * (timer-driven), then retention and the online upgrade of changed read models.
 */
export function backgroundWork(platform: Platform, options: FeatureOptions = {}): BackgroundWork {
  const list = features(options);
  const work = list.map(
    (feature) => feature.background?.(platform) ?? { consumers: [], workers: [] },
  );
  return {
    consumers: work.flatMap((each) => each.consumers),
    workers: [
      ...work.flatMap((each) => each.workers),
      retentionWorker(list),
      projectionUpgradeWorker(),
    ],
  };
}
