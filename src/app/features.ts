import type { Worker } from './background.ts';
import { eventHandlerConsumer } from '../consumers/define.ts';
import { projectionUpgradeWorker } from '../consumers/projectionUpgrade.ts';
import type { ConsumerDefinition } from '../consumers/runner.ts';
import { pipelineJobs, type PipelineOptions } from '../features/pipeline/index.ts';
import { publishingJobs } from '../features/publishing/index.ts';
import { retentionWorker } from './retention.ts';
import { searchAnalyticsJobs } from '../features/searchAnalytics/index.ts';
import type { Platform } from '../platform.ts';
import { ensureArticleQueued } from '../features/topics/ensureArticleQueued.ts';
import { webhookJobs } from '../features/webhooks/jobs.ts';

/**
 * The background work beside the projections: pipeline process managers, webhook delivery,
 * schedulers, retention. Each feature contributes its consumers (log-driven) and workers (timer-driven).
 */
export function backgroundJobs(platform: Platform, options: { pipeline?: PipelineOptions } = {}): { consumers: ConsumerDefinition[]; workers: Worker[] } {
  const webhooks = webhookJobs(platform);
  const pipeline = pipelineJobs(platform, options.pipeline);
  const publishing = publishingJobs(platform);
  const searchAnalytics = searchAnalyticsJobs(platform);
  return {
    consumers: [eventHandlerConsumer(ensureArticleQueued(platform), platform.readStore), ...webhooks.consumers, ...pipeline.consumers, ...publishing.consumers, ...searchAnalytics.consumers],
    workers: [...webhooks.workers, ...pipeline.workers, ...publishing.workers, ...searchAnalytics.workers, retentionWorker(), projectionUpgradeWorker()],
  };
}
