import type { Logger } from 'pino';
import type { Worker, WorkerBasics } from './worker.ts';

/** How a periodic worker is timed: tests shorten both. */
export type PassTiming = {
  /** Time between two passes, on the injected clock. */
  intervalMs?: number;
  /** How often (real time) the clock is looked at. */
  tickMs?: number;
};

/**
 * A timer-driven worker: it looks at the injected clock every `tickMs` of real time and runs a
 * pass when `everyMs` of clock time have gone by since the last one (and at start). Passes never
 * overlap; stop waits for the one under way. The injected clock lets tests move time without sleeping.
 */
export function periodicWorker<Deps extends WorkerBasics>(options: {
  name: string;
  everyMs: number;
  tickMs?: number;
  failureMessage: string;
  pass(deps: Deps, nowMs: number, log: Logger): Promise<void>;
}): Worker<Deps> {
  return {
    name: options.name,
    async start(deps) {
      const log = deps.logger.child({ worker: options.name });
      let lastPassMs: number | null = null;
      let pass: Promise<void> | null = null;
      const timer = setInterval(() => {
        const nowMs = deps.clock.nowMs();
        if (pass || (lastPassMs !== null && nowMs - lastPassMs < options.everyMs)) return;
        lastPassMs = nowMs;
        pass = options
          .pass(deps, nowMs, log)
          .catch((error) => log.error({ err: error }, options.failureMessage))
          .finally(() => {
            pass = null;
          });
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
