import type { Logger } from 'pino';
import type { EventStore } from '../eventstore/port.ts';
import type { ReadStore } from '../readstore/port.ts';
import type { Projection } from '../readstore/projection.ts';
import type { Worker } from './worker.ts';
import { projectionVersion } from '../readstore/projectionVersion.ts';
import { rebuildOnline } from '../readstore/rebuild.ts';
import { withTallies } from '../readstore/tally.ts';
import { PROJECTIONS_CONSUMER } from './projectionConsumer.ts';

export const PROJECTION_UPGRADE = 'projections.upgrade';

/**
 * Declares the read models' collections at start. A collection created now records the version
 * that builds it only on a store nothing was projected into yet: on one that has been (a read
 * model added by an upgrade), the new collection is empty while the live consumer's checkpoint is
 * past every earlier event, so it starts without a version and the upgrade below builds it from the log.
 */
export async function declareProjections(readStore: ReadStore, projections: readonly Projection[]): Promise<void> {
  const fresh = (await readStore.getCheckpoint(PROJECTIONS_CONSUMER)) === null;
  await readStore.ensureCollections(projections.map((projection) => ({
    name: projection.collection, indexes: projection.indexes, ...(fresh ? { version: projectionVersion(projection) } : {}),
  })));
}

/**
 * At start, on the lease holder: the read models whose definition changed since they were built
 * (another version, or none recorded) are rebuilt beside the old ones, which keep serving, and
 * swapped in together when they have caught up. Stopping the process abandons the build; the next
 * start begins it again.
 */
export function projectionUpgradeWorker(): Worker<{ logger: Logger; eventStore: EventStore; readStore: ReadStore; projections: readonly Projection[] }> {
  return {
    name: PROJECTION_UPGRADE,
    async start(platform) {
      const rebuilds = platform.readStore.onlineRebuilds;
      let changed: Projection[] = [];
      for (const projection of platform.projections) {
        if ((await rebuilds.versionOf(projection.collection)) !== projectionVersion(projection)) changed.push(projection);
      }
      if (changed.length === 0) return { async stop() {} };
      changed = withTallies(changed, platform.projections);
      const log = platform.logger.child({ worker: PROJECTION_UPGRADE, readModels: changed.map((projection) => projection.name) });
      log.info('read models changed since they were built: rebuilding them beside the ones serving');
      const abort = new AbortController();
      const startedMs = performance.now();
      const done = rebuildOnline(platform.eventStore, platform.readStore, changed, {
        consumer: 'rebuild:upgrade', live: PROJECTIONS_CONSUMER, versionOf: projectionVersion, signal: abort.signal,
      }).then(
        (swapped) => { if (swapped) log.info({ seconds: (performance.now() - startedMs) / 1000 }, 'rebuilt read models swapped in'); },
        (error: unknown) => log.error({ err: error }, 'rebuilding the changed read models failed; the old ones go on serving'),
      );
      return {
        async stop() {
          abort.abort();
          await done;
        },
      };
    },
  };
}
