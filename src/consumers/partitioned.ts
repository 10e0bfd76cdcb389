import type { Logger } from 'pino';
import type { Config } from '../core/config.ts';
import type { StoredEvent } from '../eventstore/port.ts';
import type { ReadStore } from '../readstore/port.ts';
import type { ConsumerDefinition } from './runner.ts';
import { createStreamWindow, type StreamWindow } from './streamWindow.ts';

export type PartitionedHandler = {
  name: string;
  categories: readonly string[];
  types: readonly string[];
  /** Events handled at once; events of one stream are always handled one after another, in order. */
  concurrency: number;
  /** The project an event's work is for, when its data does not say (`data.projectId`); slots go round-robin between projects. */
  projectOf?(event: StoredEvent): Promise<string>;
  handle(event: StoredEvent): Promise<void>;
};

/**
 * A process manager whose work is slow (crawls, model calls), run on a stream window: an event
 * starts as soon as a slot is free and its stream is idle, slots go round-robin between projects,
 * and the checkpoint is the low-water mark. A crash delivers again what was not finished; every
 * handler checks its stream's state first, so what was recorded is not redone.
 */
export function partitionedConsumer(
  handler: PartitionedHandler,
  platform: {
    readStore: ReadStore;
    logger: Logger;
    config: Pick<Config, 'INKSTREAM_PIPELINE_LOOKAHEAD'>;
  },
): ConsumerDefinition {
  const types = new Set(handler.types);
  const handles = (event: StoredEvent) => types.has(event.type);
  const projectOf = (event: StoredEvent): string | Promise<string> => {
    const projectId = event.data.projectId;
    if (typeof projectId === 'string') return projectId;
    return handler.projectOf ? handler.projectOf(event) : event.stream;
  };
  let window: StreamWindow | null = null;
  return {
    name: handler.name,
    categories: handler.categories,
    batchSize: 50,
    start() {
      window = createStreamWindow({
        slots: handler.concurrency,
        lookAhead: platform.config.INKSTREAM_PIPELINE_LOOKAHEAD,
        handle: (event) => handler.handle(event),
        laneOf: projectOf,
        saveCheckpoint: (position) =>
          platform.readStore.commit([], { consumer: handler.name, position }),
        logger: platform.logger.child({ consumer: handler.name }),
      });
    },
    async handleBatch(events) {
      await window!.admit(events, handles);
    },
    async stop() {
      await window?.close();
    },
  };
}
