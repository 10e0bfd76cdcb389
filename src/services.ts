import type { Logger } from 'pino';
import { join } from 'node:path';
import { allProjections } from '../projections/index.ts';
import { loadPlans, type Plan, type PlanName } from './accounts/plans.ts';
import type { Config } from './config.ts';
import { systemClock, type Clock } from './core/clock.ts';
import { createIdGenerator, type IdGenerator } from './core/ids.ts';
import { createSecretBox, loadOrCreateSecretKey, type SecretBox } from './core/secretBox.ts';
import { createLogTail, type LogTail } from './consumers/logTail.ts';
import { handleCommand, type CommandContext, type CommandOptions, type CommandResult, type DomainEvent, type StreamType } from './eventstore/handleCommand.ts';
import type { EventStore } from './eventstore/port.ts';
import type { ReadStore } from './readstore/port.ts';
import type { Projection } from './readstore/projection.ts';
import { projectionVersion } from './readstore/projectionVersion.ts';
import { createReadModels, type ReadModels } from './readstore/readModels.ts';
import { openStores, type Stores } from './stores.ts';

/** Everything a route, a consumer or the CLI needs, built once by the composition root. */
export type Services = {
  config: Config;
  logger: Logger;
  clock: Clock;
  ids: IdGenerator;
  eventStore: EventStore;
  readStore: ReadStore;
  storeKinds: Stores['kind'];
  plans: Record<PlanName, Plan>;
  secrets: SecretBox;
  projections: readonly Projection[];
  readModels: ReadModels;
  /** The process's one read of the newest events, shared by its consumers and the API's key cache. */
  tail: LogTail;
  execute<State, Event extends DomainEvent, Command>(
    type: StreamType<State, Event, Command>, id: string, command: Command, context: CommandContext, options?: CommandOptions,
  ): Promise<CommandResult<State>>;
  close(): Promise<void>;
};

export type ServiceOverrides = { clock?: Clock; stores?: Stores };

export async function createServices(config: Config, logger: Logger, overrides: ServiceOverrides = {}): Promise<Services> {
  const clock = overrides.clock ?? systemClock;
  const stores = overrides.stores ?? (await openStores(config, (message) => logger.warn({ message }, 'WAL checkpoint failed')));
  const projections = allProjections;
  await stores.readStore.ensureCollections(projections.map((p) => ({ name: p.collection, indexes: p.indexes, version: projectionVersion(p) })));
  const tail = await createLogTail(stores.eventStore);
  const secrets = createSecretBox(loadOrCreateSecretKey(config.INKSTREAM_SECRET_KEY, join(config.dataDir, 'secret.key')));
  return {
    config,
    logger,
    clock,
    ids: createIdGenerator(() => clock.nowMs()),
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    storeKinds: stores.kind,
    plans: loadPlans(config.INKSTREAM_PLANS_FILE),
    secrets,
    projections,
    readModels: createReadModels(stores.eventStore, stores.readStore, projections),
    tail,
    execute: (type, id, command, context, options) => handleCommand(stores.eventStore, type, id, command, context, options),
    async close() {
      tail.stop();
      await stores.close();
    },
  };
}
