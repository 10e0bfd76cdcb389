import type { Logger } from 'pino';
import type { Worker } from '../app/background.ts';
import type { Platform } from '../platform.ts';

/** How a periodic worker is timed: tests shorten both. */
export type PassTiming = {
  /** Time between two passes, on the platform' clock. */
  intervalMs?: number;
  /** How often (real time) the clock is looked at. */
  tickMs?: number;
};

/**
 * A timer-driven worker: it looks at the platform' clock every `tickMs` of real time and runs a
 * pass when `everyMs` of clock time have gone by since the last one (and at start). Passes never
 * overlap; stop waits for the one under way. The injected clock lets tests move time without sleeping.
 */
export function periodicWorker(options: {
  name: string;
  everyMs: number;
  tickMs?: number;
  failureMessage: string;
  pass(platform: Platform, nowMs: number, log: Logger): Promise<void>;
}): Worker {
  return {
    name: options.name,
    async start(platform) {
      const log = platform.logger.child({ worker: options.name });
      let lastPassMs: number | null = null;
      let pass: Promise<void> | null = null;
      const timer = setInterval(() => {
        const nowMs = platform.clock.nowMs();
        if (pass || (lastPassMs !== null && nowMs - lastPassMs < options.everyMs)) return;
        lastPassMs = nowMs;
        pass = options.pass(platform, nowMs, log)
          .catch((error) => log.error({ err: error }, options.failureMessage))
          .finally(() => { pass = null; });
      }, options.tickMs ?? 1_000);
      timer.unref();
      return {
        async stop() {
          clearInterval(timer);
          await pass;
        },
      };
    },
  };
}
