import type { Logger } from 'pino';
import { join } from 'node:path';
import type { SiteCorpusStore } from '../integrations/siteCorpus/port.ts';
import { openSqliteSiteCorpus, SITE_CORPUS_FILE } from '../integrations/siteCorpus/sqlite.ts';
import { loadPlans } from '../domain/accounts/plans.ts';
import type { Config } from '../core/config.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { createIdGenerator } from '../core/ids.ts';
import {
  createSecretBox,
  loadOrCreateSecretKey,
  parseRetiredKeys,
  type SecretBinding,
} from '../core/secretBox.ts';
import { createLogTail, type LogTail } from '../consumers/logTail.ts';
import { createCommands } from '../eventstore/commands.ts';
import { createDestinationPolicy, type ResolveHost } from '../integrations/safeHttp/index.ts';
import { declareProjections } from '../consumers/projectionUpgrade.ts';
import { createReadModels } from '../consumers/readModels.ts';
import type { Platform } from '../platform.ts';
import { createStoreConnection, type StoreConnection } from './storeConnection.ts';
import { allProjections } from './features.ts';
import { verifyStoreIdentity } from './storeIdentity.ts';
import { openStores, type Stores } from './stores.ts';

export type PlatformOverrides = {
  clock?: Clock;
  stores?: Stores;
  resolveHost?: ResolveHost;
  /** How start-up waits for unreachable stores; its state is what readiness reports meanwhile. */
  connection?: StoreConnection;
};

export async function createPlatform(
  config: Config,
  logger: Logger,
  overrides: PlatformOverrides = {},
): Promise<Platform> {
  const clock = overrides.clock ?? systemClock;
  const tightened = (path: string, previousMode: number) =>
    logger.warn(
      { path, previousMode: previousMode.toString(8) },
      'tightened a file in DATA_DIR to 0600 (it was readable by other users)',
    );
  const connection =
    overrides.connection ??
    createStoreConnection({
      onRetry: (what, error, delayMs) =>
        logger.warn({ err: error, retryInMs: delayMs }, `${what} is not reachable yet; waiting`),
    });
  const stores =
    overrides.stores ??
    (await connection.establish('the stores', () =>
      openStores(config, (message) => logger.warn({ message }, 'WAL checkpoint failed'), {
        onTightened: tightened,
      }),
    ));
  // Stores opened here are closed again if a later step fails; given stores stay their giver's until the platform is made.
  let tail: LogTail | undefined;
  try {
    const projections = allProjections;
    await connection.establish(
      `the stores (${stores.where.events}, ${stores.where.reads})`,
      async () => {
        await verifyStoreIdentity(stores);
        await declareProjections(stores.readStore, projections);
      },
    );
    tail = await createLogTail(stores.eventStore);
    connection.connected();
    const secrets = createSecretBox({
      current: loadOrCreateSecretKey(
        config.INKSTREAM_SECRET_KEY,
        join(config.dataDir, 'secret.key'),
        tightened,
      ),
      retired: parseRetiredKeys(config.INKSTREAM_SECRET_KEYS_RETIRED),
      onOutdated: oncePerRecord((binding, sealedWith) =>
        logger.info(
          { ...binding, sealedWith },
          'a stored secret is sealed under a retired key or without a binding: save it again before dropping that key (docs/secrets.md)',
        ),
      ),
    });
    return platformOf(
      config,
      logger,
      clock,
      stores,
      projections,
      tail,
      secrets,
      overrides.resolveHost,
    );
  } catch (error) {
    tail?.stop();
    if (!overrides.stores)
      await stores
        .close()
        .catch((closeError: unknown) =>
          logger.warn({ err: closeError }, 'closing the stores after a failed start failed'),
        );
    throw error;
  }
}

/** The corpus file is opened by the first crawl or page search, not by every start. */
function lazySiteCorpus(dataDir: string) {
  let store: SiteCorpusStore | null = null;
  return {
    open: () => (store ??= openSqliteSiteCorpus(join(dataDir, SITE_CORPUS_FILE))),
    close() {
      store?.close();
      store = null;
    },
  };
}

function platformOf(
  config: Config,
  logger: Logger,
  clock: Clock,
  stores: Stores,
  projections: Platform['projections'],
  tail: LogTail,
  secrets: Platform['secrets'],
  resolveHost: ResolveHost | undefined,
): Platform {
  const siteCorpus = lazySiteCorpus(config.dataDir);
  return {
    config,
    logger,
    clock,
    ids: createIdGenerator(() => clock.nowMs()),
    eventStore: stores.eventStore,
    readStore: stores.readStore,
    storeKinds: stores.kind,
    mongo: stores.mongo ?? null,
    plans: loadPlans(config.INKSTREAM_PLANS_FILE),
    destinations: createDestinationPolicy({
      allowPrivateAddresses: config.INKSTREAM_ALLOW_PRIVATE_URLS,
      resolveHost,
      onRefused: (detail) => logger.warn(detail, 'refused a URL whose host is not public'),
    }),
    secrets,
    projections,
    readModels: createReadModels(stores.eventStore, stores.readStore, projections),
    tail,
    commands: createCommands(stores.eventStore),
    siteCorpus: siteCorpus.open,
    async close() {
      tail.stop();
      siteCorpus.close();
      await stores.close();
    },
  };
}

/** Secrets are opened on every delivery: one log line per record and process is enough. */
function oncePerRecord<Rest extends unknown[]>(
  notice: (binding: SecretBinding, ...rest: Rest) => void,
): (binding: SecretBinding, ...rest: Rest) => void {
  const told = new Set<string>();
  return (binding, ...rest) => {
    const record = JSON.stringify([binding.kind, binding.accountId, binding.recordId]);
    if (told.has(record)) return;
    told.add(record);
    notice(binding, ...rest);
  };
}
