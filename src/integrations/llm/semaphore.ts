import { createLimiter } from '../../core/limiter.ts';

/** Caps how many calls run at once; the rest wait in arrival order. One key of the shared limiter (src/core/limiter.ts). */
export type Semaphore = {
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
};

const ONE_KEY = 'calls';

export function createSemaphore(limit: number): Semaphore {
  const limiter = createLimiter({ concurrency: limit });
  return {
    run: (task) => limiter.run(ONE_KEY, task),
    get active() {
      return limiter.inFlight(ONE_KEY);
    },
    get waiting() {
      return limiter.waiting(ONE_KEY);
    },
  };
}
