import type { ReadStore } from '../readstore/port.ts';
import { isDeadLocalProcess, processHolderId } from './leadership.ts';

/**
 * One online rebuild at a time per store. Two at once (the CLI beside a start-up upgrade) would
 * each stage a copy, and a stage drops the copy the other is filling: the other's swap would then
 * put a part-built read model in. The rebuild holds this lease, renewed every third of its time
 * to live; one left by a process of this host that no longer exists (kill -9) is taken at once.
 */
export const REBUILD_LEASE = 'projections.rebuild';
const TTL_MS = 60_000;

export class RebuildRunningError extends Error {
  readonly holder: string;
  constructor(holder: string) {
    super(
      `Another rebuild of the read models is running on this store (${holder}). It ends by swapping its read models in; run this again after it.`,
    );
    this.holder = holder;
  }
}

/**
 * Runs `rebuild` holding the rebuild lease, or throws RebuildRunningError when another process
 * holds it. The signal given to `rebuild` aborts if the lease is lost (this process stalled past
 * its time to live and another took it), so the rebuild stops before its swap.
 */
export async function withRebuildLease<T>(
  readStore: ReadStore,
  nowMs: () => number,
  rebuild: (signal: AbortSignal) => Promise<T>,
  options: { signal?: AbortSignal; ttlMs?: number } = {},
): Promise<T> {
  const holder = processHolderId();
  const ttlMs = options.ttlMs ?? TTL_MS;
  const take = async () => {
    if (await readStore.acquireLease(REBUILD_LEASE, holder, ttlMs, nowMs())) return true;
    const current = await readStore.leaseHolder(REBUILD_LEASE);
    return (
      current !== null &&
      isDeadLocalProcess(current.holder) &&
      readStore.acquireLease(REBUILD_LEASE, holder, ttlMs, nowMs(), { replacing: current.holder })
    );
  };
  if (!(await take()))
    throw new RebuildRunningError(
      (await readStore.leaseHolder(REBUILD_LEASE))?.holder ?? 'unknown',
    );
  const lost = new AbortController();
  const renew = setInterval(() => {
    readStore.acquireLease(REBUILD_LEASE, holder, ttlMs, nowMs()).then(
      (held) => {
        if (!held) lost.abort();
      },
      () => {}, // a failed renewal is tried again at the next tick; the lease outlives two
    );
  }, ttlMs / 3);
  renew.unref();
  try {
    return await rebuild(
      options.signal ? AbortSignal.any([options.signal, lost.signal]) : lost.signal,
    );
  } finally {
    clearInterval(renew);
    await readStore.releaseLease(REBUILD_LEASE, holder);
  }
}
