/**
 * Inkstream on the embedded default in its own process, on an existing DATA_DIR, for the scale
 * bench: measures its own start (process start → ready) and answers { rss } with its resident
 * memory after a full garbage collection, { heap } with its heap in use after one, { cpu } with its CPU time so far in µs, { trace: 'start' | 'stop', profile? }
 * (what ran in the process meanwhile, serverTrace.ts) and { stop }. Creates the bench's API key if BENCH_KEY is unset.
 * Run by bench/scale.bench.ts with --expose-gc.
 */
import { createApiKey } from '../../src/features/accounts/keys.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { startServer } from '../../src/app/start.ts';
import { startTracing } from './serverTrace.ts';

const running = await startServer(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: process.env.DATA_DIR!,
    LOG_LEVEL: 'silent',
    INKSTREAM_RATE_LIMIT_PER_MINUTE: '1000000000',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
  }),
  createLogger('silent'),
);
const readyMs = performance.now(); // since this process started
const key =
  process.env.BENCH_KEY || (await createApiKey(running.platform, { account: 'bench' })).key;

const rss = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};

let tracing: Awaited<ReturnType<typeof startTracing>> | null = null;

process.on(
  'message',
  async (message: {
    rss?: true;
    heap?: true;
    cpu?: true;
    trace?: 'start' | 'stop';
    profile?: boolean;
    stop?: true;
  }) => {
    if (message.rss) process.send!({ rss: rss() });
    if (message.heap) process.send!({ heap: { afterGc: rss() && process.memoryUsage().heapUsed } });
    if (message.trace === 'start') {
      tracing = await startTracing(running.server, { profile: message.profile ?? true });
      process.send!({ tracing: true });
    }
    if (message.trace === 'stop' && tracing) {
      process.send!({ trace: await tracing.stop() });
      tracing = null;
    }
    if (message.cpu) {
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system });
    }
    if (message.stop) {
      await running.stop();
      process.send!({ stopped: true });
      process.exit(0);
    }
  },
);
process.send!({ ready: true, url: running.url, key, readyMs });
