import { RateLimiterMemory, RateLimiterMongo } from 'rate-limiter-flexible';
import type { Config } from '../core/config.ts';
import type { MongoConnection } from '../readstore/mongo.ts';
import { createRateLimit, RATE_LIMIT_WINDOW_SECONDS, type RateLimit } from './rateLimit.ts';

export type OpenedRateLimit = { rateLimit: RateLimit; close(): Promise<void> };

export const RATE_LIMIT_COLLECTION = 'rate_limits';

/**
 * Where the per-key counters live: in memory on the embedded default (one process), in the read
 * store's MongoDB database when MONGODB_URL is set (through its connection, which the platform
 * closes), so every replica draws on the same budget per key. If MongoDB stops answering, each
 * replica falls back to its own memory counters rather than failing requests.
 */
export async function openRateLimit(
  config: Pick<Config, 'INKSTREAM_RATE_LIMIT_PER_MINUTE'>,
  mongo: MongoConnection | null,
): Promise<OpenedRateLimit> {
  const points = config.INKSTREAM_RATE_LIMIT_PER_MINUTE;
  const duration = RATE_LIMIT_WINDOW_SECONDS;
  if (!mongo) return { rateLimit: createRateLimit(points), close: async () => {} };
  const limiter = new RateLimiterMongo({
    storeClient: mongo.client,
    dbName: mongo.dbName,
    tableName: RATE_LIMIT_COLLECTION,
    keyPrefix: 'api_key',
    points,
    duration,
    insuranceLimiter: new RateLimiterMemory({ points, duration }),
  });
  return { rateLimit: createRateLimit(points, limiter), close: async () => {} };
}
