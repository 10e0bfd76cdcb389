import { startLeadership } from '../consumers/leadership.ts';
import { projectionConsumer } from '../consumers/projectionConsumer.ts';
import { startConsumer, type ConsumerHandle } from '../consumers/runner.ts';
import type { BackgroundWork } from '../features/feature.ts';
import type { Platform } from '../platform.ts';

/**
 * Everything that runs beside the API. Every process keeps its read models up to date; only the
 * process holding the background lease runs the side-effect consumers and timer-driven workers,
 * so several replicas (or a second start on the same data) never do the same work twice.
 */
/** `consumers` lists those running now: the projections, and the side-effect consumers while leading. */
export type Background = {
  readonly consumers: ConsumerHandle[];
  isLeader(): boolean;
  stop(): Promise<void>;
};

export async function startBackground(
  platform: Platform,
  extra: Partial<BackgroundWork> = {},
  options: { leaseTtlMs?: number } = {},
): Promise<Background> {
  const runner = {
    store: platform.eventStore,
    readStore: platform.readStore,
    logger: platform.logger,
    tail: platform.tail,
  };
  const unknownReported = new Set<string>();
  const reportUnknown = (projection: string, type: string): void => {
    if (unknownReported.has(`${projection} ${type}`)) return;
    unknownReported.add(`${projection} ${type}`);
    platform.logger.warn(
      { projection, type },
      'a read model skipped an event type this release does not know (written by a newer release?)',
    );
  };
  const projections = await startConsumer(
    projectionConsumer(
      platform.projections,
      platform.readStore,
      platform.eventStore,
      undefined,
      reportUnknown,
    ),
    runner,
  );
  platform.readModels.attach(projections);

  let sideEffects: ConsumerHandle[] = [];
  let workers: { stop(): Promise<void> }[] = [];
  const leadership = await startLeadership({
    readStore: platform.readStore,
    logger: platform.logger,
    // Real time, not the platform' (injectable) clock: the lease is shared with other processes.
    nowMs: () => Date.now(),
    ttlMs: options.leaseTtlMs,
    async onElected() {
      for (const definition of extra.consumers ?? [])
        sideEffects.push(await startConsumer(definition, runner));
      for (const worker of extra.workers ?? []) workers.push(await worker.start(platform));
    },
    async onDeposed() {
      await Promise.all(workers.map((worker) => worker.stop()));
      await Promise.all(sideEffects.map((consumer) => consumer.stop()));
      workers = [];
      sideEffects = [];
    },
  });

  return {
    get consumers() {
      return [projections, ...sideEffects];
    },
    isLeader: leadership.isLeader,
    async stop() {
      await leadership.stop();
      await projections.stop();
    },
  };
}
