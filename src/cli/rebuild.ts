import { BACKGROUND_LEASE, isDeadLocalProcess } from '../consumers/leadership.ts';
import { PROJECTIONS_CONSUMER } from '../consumers/projectionConsumer.ts';
import { rebuildReadModels } from '../readstore/rebuild.ts';
import type { Services } from '../services.ts';
import { createProgress } from './progress.ts';

/**
 * Drops the read models and replays the whole log into them. With a name, only that read model is
 * rebuilt (under its own checkpoint, then the shared one is left as it was).
 */
export async function rebuildProjections(
  services: Services, name?: string, options: { force?: boolean } = {},
): Promise<{ events: number; seconds: number; rate: number }> {
  if (!options.force) await refuseWhileServing(services);
  const selected = name ? services.projections.filter((projection) => projection.name === name) : services.projections;
  if (selected.length === 0) {
    throw new Error(`No read model named ${name}; known: ${services.projections.map((projection) => projection.name).join(', ')}`);
  }
  const head = await services.eventStore.headPosition();
  const total = Number(head + 1n);
  const progress = createProgress(`rebuilding ${name ?? 'all read models'}`, total);
  let done = 0;
  await rebuildReadModels(services.eventStore, services.readStore, selected, {
    consumer: name ? `rebuild:${name}` : PROJECTIONS_CONSUMER,
    categories: name ? [...new Set(selected.flatMap((projection) => projection.categories))] : undefined,
    onProgress(position) {
      done = Number(position + 1n);
      progress.update(done);
    },
  });
  const { seconds, rate } = progress.finish(Math.max(done, total));
  return { events: total, seconds, rate };
}

/**
 * A running server keeps projecting into the very read models a rebuild clears and refills, and
 * its writes can land between the rebuild's, so a rebuild wants the servers stopped. A live server
 * is known by the background lease: some server always holds it while any runs.
 */
async function refuseWhileServing(services: Services): Promise<void> {
  const lease = await services.readStore.leaseHolder(BACKGROUND_LEASE);
  if (!lease || lease.expiresAtMs <= services.clock.nowMs() || isDeadLocalProcess(lease.holder)) return;
  throw new Error(
    `A server is running on this store (${lease.holder}); it keeps writing the read models while they are rebuilt. ` +
      'Stop it first (it can take up to 15 s after a kill for its lease to lapse), or pass --force.',
  );
}
