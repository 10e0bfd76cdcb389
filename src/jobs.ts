import type { Worker } from './background.ts';
import type { ConsumerDefinition } from './consumers/runner.ts';
import type { Services } from './services.ts';

/**
 * The background work beside the projections: pipeline process managers, webhook delivery,
 * schedulers. Each feature contributes its consumers (log-driven) and workers (timer-driven).
 */
export function backgroundJobs(_services: Services): { consumers: ConsumerDefinition[]; workers: Worker[] } {
  return { consumers: [], workers: [] };
}
