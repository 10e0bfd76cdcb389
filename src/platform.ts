import type { Logger } from 'pino';
import type { Config } from './core/config.ts';
import type { Clock } from './core/clock.ts';
import type { IdGenerator } from './core/ids.ts';
import type { SecretBox } from './core/secretBox.ts';
import type { LogTail } from './consumers/logTail.ts';
import type { ReadModels } from './consumers/readModels.ts';
import type { Plan, PlanName } from './domain/accounts/plans.ts';
import type { Commands } from './eventstore/commands.ts';
import type { EventStore } from './eventstore/port.ts';
import type { DestinationPolicy } from './integrations/safeHttp/index.ts';
import type { ReadStore } from './readstore/port.ts';
import type { SiteCorpusStore } from './integrations/siteCorpus/port.ts';
import type { MongoConnection } from './readstore/mongo.ts';
import type { Projection } from './readstore/projection.ts';

/** Which adapter serves each store. */
export type StoreKinds = { events: 'sqlite' | 'esdb'; reads: 'sqlite' | 'mongo' };

/**
 * What the composition root (app/platform.ts) builds once: stores, clock, ids, secrets, commands,
 * the log tail. A feature takes `Pick<Platform, ...>` of what it uses.
 */
export type Platform = {
  config: Config;
  logger: Logger;
  clock: Clock;
  ids: IdGenerator;
  eventStore: EventStore;
  readStore: ReadStore;
  storeKinds: StoreKinds;
  /** The read store's MongoDB connection when MONGODB_URL is set (null on SQLite): counters beside the read models share it. */
  mongo: MongoConnection | null;
  plans: Record<PlanName, Plan>;
  /** Which URLs tenants may register and Inkstream may connect to (one policy for both moments). */
  destinations: DestinationPolicy;
  secrets: SecretBox;
  projections: readonly Projection[];
  readModels: ReadModels;
  /** The process's one read of the newest events, shared by its consumers and the API's key cache. */
  tail: LogTail;
  /** Command handling (eventstore/commands.ts): read, fold, decide, append. */
  commands: Commands;
  /** The site corpus beside the log (docs/site-corpus.md), opened at its first use. */
  siteCorpus(): SiteCorpusStore;
  close(): Promise<void>;
};
