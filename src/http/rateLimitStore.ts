import { RateLimiterMemory, RateLimiterMongo } from 'rate-limiter-flexible';
import type { Config } from '../core/config.ts';
import { createRateLimit, RATE_LIMIT_WINDOW_SECONDS, type RateLimit } from './rateLimit.ts';

export type OpenedRateLimit = { rateLimit: RateLimit; close(): Promise<void> };

export const RATE_LIMIT_COLLECTION = 'rate_limits';

/**
 * Where the per-key counters live: in memory on the embedded default (one process), in MongoDB
 * when MONGODB_URL is set, so every replica draws on the same budget per key. If MongoDB stops
 * answering, each replica falls back to its own memory counters rather than failing requests.
 */
export async function openRateLimit(config: Config): Promise<OpenedRateLimit> {
  const points = config.INKSTREAM_RATE_LIMIT_PER_MINUTE;
  const duration = RATE_LIMIT_WINDOW_SECONDS;
  if (!config.MONGODB_URL) return { rateLimit: createRateLimit(points), close: async () => {} };
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(config.MONGODB_URL);
  await client.connect();
  const limiter = new RateLimiterMongo({
    storeClient: client, dbName: client.db().databaseName, tableName: RATE_LIMIT_COLLECTION, keyPrefix: 'api_key',
    points, duration, insuranceLimiter: new RateLimiterMemory({ points, duration }),
  });
  return { rateLimit: createRateLimit(points, limiter), close: () => client.close() };
}
