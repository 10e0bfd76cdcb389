import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.ts';
import type { EventStore } from '../eventstore/port.ts';
import type { ReadStore } from '../readstore/port.ts';
import type { Projection } from '../readstore/projection.ts';
import type { Worker } from './worker.ts';
import { projectionVersion } from '../readstore/projectionVersion.ts';
import { catchUpAfterSwap, rebuildOnline, SWAP_CATCH_UP } from '../readstore/rebuild.ts';
import { withTallies } from '../readstore/tally.ts';
import { PROJECTIONS_CONSUMER } from './projectionConsumer.ts';
import { RebuildRunningError, withRebuildLease } from './rebuildLease.ts';

export const PROJECTION_UPGRADE = 'projections.upgrade';

/**
 * Declares the read models' collections at start. A collection created now records the version
 * that builds it only on a store nothing was projected into yet: on one that has been (a read
 * model added by an upgrade), the new collection is empty while the live consumer's checkpoint is
 * past every earlier event, so it starts without a version and the upgrade below builds it from the log.
 */
export async function declareProjections(
  readStore: ReadStore,
  projections: readonly Projection[],
): Promise<void> {
  const fresh = (await readStore.getCheckpoint(PROJECTIONS_CONSUMER)) === null;
  await readStore.ensureCollections(
    projections.map((projection) => ({
      name: projection.collection,
      indexes: projection.indexes,
      ...(fresh ? { version: projectionVersion(projection) } : {}),
    })),
  );
}

type UpgradePlatform = {
  logger: Logger;
  eventStore: EventStore;
  readStore: ReadStore;
  projections: readonly Projection[];
  clock: Clock;
};

/**
 * At start, on the lease holder: the read models whose definition changed since they were built
 * (another version, or none recorded) are rebuilt beside the old ones, which keep serving, and
 * swapped in when they have caught up. While another rebuild runs (the CLI's), it waits for that
 * one to end and looks again: it may have built them. Stopping the process abandons the build;
 * the next start begins it again.
 */
export function projectionUpgradeWorker(
  options: { retryMs?: number } = {},
): Worker<UpgradePlatform> {
  const retryMs = options.retryMs ?? 30_000;
  return {
    name: PROJECTION_UPGRADE,
    async start(platform) {
      const changed = await changedProjections(platform);
      if (changed.length === 0 && (await platform.readStore.getCheckpoint(SWAP_CATCH_UP)) === null)
        return { async stop() {} };
      const abort = new AbortController();
      const done = upgrade(platform, changed, abort.signal, retryMs);
      return {
        async stop() {
          abort.abort();
          await done;
        },
      };
    },
  };
}

async function changedProjections(platform: UpgradePlatform): Promise<Projection[]> {
  const changed: Projection[] = [];
  for (const projection of platform.projections) {
    if (
      (await platform.readStore.onlineRebuilds.versionOf(projection.collection)) !==
      projectionVersion(projection)
    )
      changed.push(projection);
  }
  return changed.length === 0 ? [] : withTallies(changed, platform.projections);
}

async function upgrade(
  platform: UpgradePlatform,
  changedAtStart: Projection[],
  signal: AbortSignal,
  retryMs: number,
): Promise<void> {
  for (let changed: Projection[] | null = changedAtStart; ; changed = null) {
    if (signal.aborted) return;
    let log = platform.logger.child({ worker: PROJECTION_UPGRADE });
    try {
      // Looked at again after waiting for another rebuild: it may have built them.
      const toBuild = changed ?? (await changedProjections(platform));
      log = log.child({ readModels: toBuild.map((projection) => projection.name) });
      const startedMs = performance.now();
      const swapped = await withRebuildLease(
        platform.readStore,
        () => platform.clock.nowMs(),
        async (leased) => {
          // A swap whose process died before its catch-up (rebuild.ts) is finished first, whatever else changed.
          await catchUpAfterSwap(platform.eventStore, platform.readStore, platform.projections);
          if (toBuild.length === 0) return true;
          log.info(
            'read models changed since they were built: rebuilding them beside the ones serving',
          );
          return rebuildOnline(platform.eventStore, platform.readStore, toBuild, {
            consumer: 'rebuild:upgrade',
            live: PROJECTIONS_CONSUMER,
            versionOf: projectionVersion,
            signal: leased,
          });
        },
        { signal },
      );
      if (swapped && toBuild.length > 0)
        log.info(
          { seconds: (performance.now() - startedMs) / 1000 },
          'rebuilt read models swapped in',
        );
      if (swapped || signal.aborted) return;
    } catch (error) {
      if (!(error instanceof RebuildRunningError)) {
        log.error(
          { err: error },
          'rebuilding the changed read models failed; the old ones go on serving',
        );
        return;
      }
      log.info(
        { holder: error.holder },
        'another rebuild is running: waiting for it to end, then looking again',
      );
    }
    await sleep(retryMs, undefined, { signal }).catch(() => {});
  }
}
