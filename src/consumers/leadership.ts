import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { ReadStore } from '../readstore/port.ts';

/**
 * One process of several sharing a store runs the side effects (pipeline, publishing, webhook
 * delivery, schedulers); the others serve the API and keep their own read models. The leader
 * renews a lease every third of its time to live; a follower takes over when it expires, or at
 * once when the holder is a process on this host that no longer exists (a kill -9 and restart
 * must not wait for the lease to run out).
 */
export const BACKGROUND_LEASE = 'background';

export type Leadership = { isLeader(): boolean; stop(): Promise<void> };

export type LeadershipOptions = {
  readStore: ReadStore;
  logger: Logger;
  nowMs: () => number;
  ttlMs?: number;
  onElected(): Promise<void>;
  onDeposed(): Promise<void>;
};

export const processHolderId = (): string =>
  `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

export function isDeadLocalProcess(holder: string): boolean {
  const [host, pid] = holder.split(':');
  if (host !== hostname() || !/^\d+$/.test(pid ?? '') || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export async function startLeadership(options: LeadershipOptions): Promise<Leadership> {
  const { readStore, logger } = options;
  const ttlMs = options.ttlMs ?? 15_000;
  const holder = processHolderId();
  let leading = false;
  let stopped = false;
  let turn = Promise.resolve();

  async function attempt(): Promise<void> {
    let acquired = await readStore.acquireLease(BACKGROUND_LEASE, holder, ttlMs, options.nowMs());
    if (!acquired) {
      const current = await readStore.leaseHolder(BACKGROUND_LEASE);
      if (current && isDeadLocalProcess(current.holder)) {
        acquired = await readStore.acquireLease(BACKGROUND_LEASE, holder, ttlMs, options.nowMs(), {
          replacing: current.holder,
        });
      }
    }
    if (acquired && !leading && !stopped) {
      leading = true;
      logger.info({ holder }, 'this process runs the background work');
      await options.onElected();
    } else if (!acquired && leading) {
      leading = false;
      logger.warn(
        { holder },
        'lost the background lease; another process runs the background work now',
      );
      await options.onDeposed();
    }
  }
  const tick = () => {
    turn = turn
      .then(attempt)
      .catch((error) => logger.error({ err: error }, 'background lease check failed'));
    return turn;
  };
  await tick();
  const timer = setInterval(tick, Math.max(50, Math.floor(ttlMs / 3)));
  timer.unref();

  return {
    isLeader: () => leading,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await turn;
      if (leading) {
        leading = false;
        await options.onDeposed();
        await readStore.releaseLease(BACKGROUND_LEASE, holder);
      }
    },
  };
}
