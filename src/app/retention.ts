import type { Worker } from './background.ts';
import { periodicWorker, type PassTiming } from '../consumers/periodicWorker.ts';
import { expireIdempotencyKeys } from '../http/idempotencyRetention.ts';
import { pruneWebhookHistory } from '../features/webhooks/retention.ts';

export const RETENTION = 'retention';
export const RETENTION_INTERVAL_MS = 3_600_000;

/**
 * Keeps the state that is not derived from the log from growing forever: expired Idempotency-Key
 * records, and the webhook delivery log and event feed past their window. Hourly, and at start.
 */
export function retentionWorker(options: PassTiming = {}): Worker {
  return periodicWorker({
    name: RETENTION,
    everyMs: options.intervalMs ?? RETENTION_INTERVAL_MS,
    tickMs: options.tickMs,
    failureMessage: 'retention pass failed',
    async pass(platform, nowMs, log) {
      const idempotencyKeys = await expireIdempotencyKeys(platform.readStore, nowMs);
      const webhooks = await pruneWebhookHistory(platform.readStore, nowMs);
      if (idempotencyKeys + webhooks.deliveries + webhooks.events > 0) log.info({ idempotencyKeys, ...webhooks }, 'removed what has aged out');
    },
  });
}
