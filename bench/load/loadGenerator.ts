import { Pool } from 'undici';

export type LoadRequest = { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };

export type LoadResult = {
  requests: number;
  warmupRequests: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  statuses: Record<string, number>;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Closed-loop keep-alive load: `connections` workers, each with one request in flight on its own
 * connection, for a fixed duration. A warm-up of the same shape runs first and is not measured;
 * `onResponse` sees every response, the warm-up's included.
 */
export async function runLoad(options: {
  origin: string; connections: number; durationMs: number; warmupMs: number;
  request(): LoadRequest;
  onResponse?(status: number, body: string): void;
}): Promise<LoadResult> {
  const pool = new Pool(options.origin, { connections: options.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    const warmup = await drive(pool, options, options.warmupMs);
    return { ...(await drive(pool, options, options.durationMs)), warmupRequests: warmup.requests };
  } finally {
    await pool.close();
  }
}

async function drive(pool: Pool, options: Parameters<typeof runLoad>[0], durationMs: number): Promise<Omit<LoadResult, 'warmupRequests'>> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(Array.from({ length: options.connections }, async () => {
    while (performance.now() < deadline) {
      const request = options.request();
      const sent = performance.now();
      const response = await pool.request({ origin: options.origin, ...request });
      const text = await response.body.text();
      latencies.push(performance.now() - sent);
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      options.onResponse?.(response.statusCode, text);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds: round(seconds),
    requestsPerSecond: Math.round(latencies.length / seconds),
    latencyMs: { p50: round(percentile(latencies, 50)), p90: round(percentile(latencies, 90)), p99: round(percentile(latencies, 99)), max: round(latencies.at(-1) ?? 0) },
    statuses,
  };
}
