import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';

/** What every timer-driven worker is given; a worker's own type names what else it uses. */
export type WorkerBasics = { clock: Clock; logger: Logger };

export type RunningWorker = { stop(): Promise<void> };

/** Timer-driven work that runs on the process holding the background lease (app/background.ts). */
export type Worker<Deps = WorkerBasics> = {
  name: string;
  start(deps: Deps): Promise<RunningWorker>;
};

/**
 * A feature's background lifecycle: a worker that starts and stops with the work (the lease won or
 * lost, shutdown) and an AbortSignal, aborted at the stop, that ends the waits and retries of the
 * runs under way (their events are handled again after the restart). `onRestart` renews what the
 * stop closed; the first start finds everything open.
 */
export type StopSwitch = { worker: Worker<unknown>; readonly signal: AbortSignal };

export function stopSwitch(
  name: string,
  hooks: { onRestart?(): void; onStop?(): Promise<void> } = {},
): StopSwitch {
  let controller = new AbortController();
  return {
    get signal() {
      return controller.signal;
    },
    worker: {
      name,
      async start() {
        if (controller.signal.aborted) {
          controller = new AbortController();
          hooks.onRestart?.();
        }
        return {
          async stop() {
            controller.abort(new Error(`${name}: the background work is stopping`));
            await hooks.onStop?.();
          },
        };
      },
    },
  };
}
