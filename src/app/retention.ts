import { periodicWorker, type PassTiming } from '../consumers/periodicWorker.ts';
import type { Worker } from '../consumers/worker.ts';
import type { Feature } from '../features/feature.ts';
import { expireAccessTokens } from '../http/accessTokens.ts';
import { expireIdempotencyKeys } from '../http/idempotencyRetention.ts';
import type { Platform } from '../platform.ts';

export const RETENTION = 'retention';
export const RETENTION_INTERVAL_MS = 3_600_000;

/**
 * Keeps the state that is not derived from the log from growing forever: expired Idempotency-Key
 * records and access tokens, and what each feature prunes (the webhook delivery log and event feed past their
 * window). Hourly, and at start.
 */
export function retentionWorker(
  features: readonly Pick<Feature, 'prune'>[],
  options: PassTiming = {},
): Worker<Pick<Platform, 'clock' | 'logger' | 'readStore'>> {
  return periodicWorker({
    name: RETENTION,
    everyMs: options.intervalMs ?? RETENTION_INTERVAL_MS,
    tickMs: options.tickMs,
    failureMessage: 'retention pass failed',
    async pass(platform: Pick<Platform, 'clock' | 'logger' | 'readStore'>, nowMs, log) {
      const removed: Record<string, number> = {
        idempotencyKeys: await expireIdempotencyKeys(platform.readStore, nowMs),
        accessTokens: await expireAccessTokens(platform.readStore, nowMs),
      };
      for (const feature of features)
        Object.assign(removed, await feature.prune?.(platform.readStore, nowMs));
      if (Object.values(removed).some((count) => count > 0))
        log.info(removed, 'removed what has aged out');
    },
  });
}
