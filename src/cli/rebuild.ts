import { getPriority, setPriority } from 'node:os';
import { BACKGROUND_LEASE, isDeadLocalProcess } from '../consumers/leadership.ts';
import { PROJECTIONS_CONSUMER } from '../consumers/projectionConsumer.ts';
import { withRebuildLease } from '../consumers/rebuildLease.ts';
import { projectionVersion } from '../readstore/projectionVersion.ts';
import { catchUpAfterSwap, rebuildOnline } from '../readstore/rebuild.ts';
import { withTallies } from '../readstore/tally.ts';
import type { Platform } from '../platform.ts';
import { createLogProgress, type ProgressOptions } from './progress.ts';

/**
 * Rebuilds the read models from the whole log (with a name, only that one) into fresh collections
 * while the old ones keep serving, then swaps them in: a running server goes on answering throughout.
 */
export async function rebuildProjections(
  platform: Pick<Platform, 'eventStore' | 'readStore' | 'projections' | 'clock'>,
  name?: string,
  options: { progress?: ProgressOptions; onBesideServer?: (note: string) => void } = {},
): Promise<{ events: number; seconds: number; rate: number }> {
  const named = name
    ? platform.projections.filter((projection) => projection.name === name)
    : platform.projections;
  const selected = withTallies(named, platform.projections);
  if (named.length === 0) {
    throw new Error(
      `No read model named ${name}; known: ${platform.projections.map((projection) => projection.name).join(', ')}`,
    );
  }
  const server = await liveServer(platform);
  if (server) options.onBesideServer?.(yieldCpuTo(server));
  const progress = createLogProgress(
    `rebuilding ${name ?? 'all read models'}`,
    { head: await platform.eventStore.headPosition() },
    options.progress,
  );
  let done = 0;
  const swapped = await withRebuildLease(
    platform.readStore,
    () => platform.clock.nowMs(),
    async (signal) => {
      await catchUpAfterSwap(platform.eventStore, platform.readStore, platform.projections);
      return rebuildOnline(platform.eventStore, platform.readStore, selected, {
        consumer: name ? `rebuild:${name}` : 'rebuild',
        categories: name
          ? [...new Set(selected.flatMap((projection) => projection.categories))]
          : undefined,
        live: PROJECTIONS_CONSUMER,
        versionOf: projectionVersion,
        signal,
        onProgress(position: bigint, events: number) {
          done = events;
          progress.update(events, position);
        },
      });
    },
  );
  if (!swapped)
    throw new Error(
      'The rebuild stalled for over a minute and lost its lease to another process; nothing was swapped in. Run it again.',
    );
  const { seconds, rate } = progress.finish(done);
  return { events: done, seconds, rate };
}

/** The process serving this store, by the background lease some server holds while any runs; null when none. */
async function liveServer(platform: Pick<Platform, 'readStore' | 'clock'>): Promise<string | null> {
  const lease = await platform.readStore.leaseHolder(BACKGROUND_LEASE);
  if (!lease || lease.expiresAtMs <= platform.clock.nowMs() || isDeadLocalProcess(lease.holder))
    return null;
  return lease.holder;
}

/** The niceness a rebuild takes beside a running server: where the two want the same core, the server's requests go first. */
export const BESIDE_SERVER_NICENESS = 19;

/**
 * Online, the rebuild and the server share the host's cores (an embedded store is one file on one
 * host; with MongoDB the server may run elsewhere, and the lower priority costs little). The rebuild
 * lowers its own CPU priority so the server keeps answering promptly; when the server is idle the
 * rebuild still gets the whole core, so it loses little speed.
 */
function yieldCpuTo(server: string): string {
  try {
    setPriority(Math.max(getPriority(), BESIDE_SERVER_NICENESS));
  } catch {
    return `a server is running on this store (${server}); the rebuild could not lower its CPU priority and shares the cores with it`;
  }
  return `a server is running on this store (${server}); rebuilding at CPU priority ${getPriority()} (nice) so it keeps answering`;
}
