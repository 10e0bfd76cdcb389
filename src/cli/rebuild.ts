import { PROJECTIONS_CONSUMER } from '../consumers/projectionConsumer.ts';
import { rebuildReadModels } from '../readstore/rebuild.ts';
import type { Services } from '../services.ts';
import { createProgress } from './progress.ts';

/**
 * Drops the read models and replays the whole log into them. With a name, only that read model is
 * rebuilt (under its own checkpoint, then the shared one is left as it was).
 */
export async function rebuildProjections(services: Services, name?: string): Promise<{ events: number; seconds: number; rate: number }> {
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
