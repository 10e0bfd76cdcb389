import { projectionConsumer } from './consumers/projectionConsumer.ts';
import { startConsumer, type ConsumerDefinition, type ConsumerHandle } from './consumers/runner.ts';
import type { Services } from './services.ts';

/** Everything that runs beside the API: projections first, then workers and webhook delivery. */
export type Background = { consumers: ConsumerHandle[]; stop(): Promise<void> };

export type Worker = { name: string; start(services: Services): Promise<{ stop(): Promise<void> }> };

export async function startBackground(
  services: Services, extra: { consumers?: ConsumerDefinition[]; workers?: Worker[] } = {},
): Promise<Background> {
  const options = { store: services.eventStore, readStore: services.readStore, logger: services.logger };
  const projections = await startConsumer(projectionConsumer(services.projections, services.readStore), options);
  services.readModels.attach(projections);
  const consumers = [projections];
  for (const definition of extra.consumers ?? []) consumers.push(await startConsumer(definition, options));
  const workers: { stop(): Promise<void> }[] = [];
  for (const worker of extra.workers ?? []) workers.push(await worker.start(services));
  return {
    consumers,
    async stop() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await Promise.all(consumers.map((consumer) => consumer.stop()));
    },
  };
}
