import { applyProjections, PROJECTIONS_CONSUMER } from '../consumers/projectionConsumer.ts';
import type { Services } from '../services.ts';
import { createProgress } from './progress.ts';

/**
 * Drops the read models and replays the whole log into them in large batches. With a name, only
 * that read model is rebuilt (under its own checkpoint, then the shared one is left as it was).
 */
export async function rebuildProjections(services: Services, name?: string): Promise<{ events: number; seconds: number; rate: number }> {
  const selected = name ? services.projections.filter((projection) => projection.name === name) : services.projections;
  if (selected.length === 0) {
    throw new Error(`No read model named ${name}; known: ${services.projections.map((projection) => projection.name).join(', ')}`);
  }
  const consumer = name ? `rebuild:${name}` : PROJECTIONS_CONSUMER;
  const categories = name ? [...new Set(selected.flatMap((projection) => projection.categories))] : undefined;
  await services.readStore.reset(selected.map((projection) => projection.collection), [consumer]);
  await services.readStore.ensureCollections(selected.map((projection) => ({ name: projection.collection, indexes: projection.indexes })));
  const head = await services.eventStore.headPosition();
  const total = Number(head + 1n);
  const progress = createProgress(`rebuilding ${name ?? 'all read models'}`, total);
  let after = -1n;
  let done = 0;
  for (;;) {
    const events = await services.eventStore.readAll({ after, maxCount: 20_000, categories });
    if (events.length === 0) break;
    await applyProjections(selected, services.readStore, events, consumer);
    after = events[events.length - 1].position;
    done = Number(after + 1n);
    progress.update(done);
  }
  // The reset deferred the secondary indexes; build them now, once, as part of the rebuild.
  for (const projection of selected) await services.readStore.count(projection.collection);
  const { seconds, rate } = progress.finish(Math.max(done, total));
  return { events: total, seconds, rate };
}
