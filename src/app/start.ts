import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { bootstrapDefaultAccount } from '../features/accounts/keys.ts';
import {
  applicationHandler,
  ensureApplicationCollections,
  firstOwnerLink,
  openSignInThrottle,
} from '../features/application/index.ts';
import { endLiveStreams } from '../features/live/index.ts';
import { startBackground, type Background } from './background.ts';
import type { Config } from '../core/config.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { createIdGenerator } from '../core/ids.ts';
import { createApp } from '../http/app.ts';
import { createConnectionCap } from '../http/connectionCap.ts';
import { openRateLimit } from '../http/rateLimitStore.ts';
import type { ResolveHost } from '../integrations/safeHttp/index.ts';
import { answerClientErrors, serverOptions } from '../http/serverLimits.ts';
import { createStartingListener } from '../http/starting.ts';
import { allRoutes, backgroundWork } from './features.ts';
import type { PipelineOptions } from '../features/pipeline/index.ts';
import { connectingReadiness } from '../http/readiness.ts';
import { createReadiness } from './readiness.ts';
import type { Platform } from '../platform.ts';
import { createPlatform } from './platform.ts';
import type { StoreConnection } from './storeConnection.ts';
import type { Stores } from './stores.ts';
import { llmConfigOf, writerState } from '../integrations/llm/select.ts';

export type RunningServer = {
  platform: Platform;
  server: Server;
  url: string;
  background: Background;
  stop(): Promise<void>;
};

export type ServerOverrides = {
  clock?: Clock;
  stores?: Stores;
  pipeline?: PipelineOptions;
  resolveHost?: ResolveHost;
  /** How start-up waits for unreachable stores (storeConnection.ts). */
  connection?: StoreConnection;
  /** Told the address once the port is bound, before the stores are open. */
  onListening?: (url: string) => void;
  /** Where the first start's one-time secrets (the default account's key) are shown; standard output by default. */
  announce?: (text: string) => void;
};

/**
 * Listens first, answering as a process that is alive but not ready while the stores are reached
 * (they may take a while: storeConnection.ts), then builds the platform, starts the background
 * consumers and serves the API; `stop` shuts down gracefully.
 */
export async function startServer(
  config: Config,
  logger: Logger,
  overrides: ServerOverrides = {},
): Promise<RunningServer> {
  const httpOptions = serverOptions(config);
  const connections = createConnectionCap({
    perAddress: config.INKSTREAM_CONNECTIONS_PER_ADDRESS,
    trustedProxies: config.INKSTREAM_TRUSTED_PROXIES,
  });
  const starting = createStartingListener({
    readiness: connectingReadiness,
    ids: createIdGenerator(() => (overrides.clock ?? systemClock).nowMs()),
  });
  const server = createServer(httpOptions, starting);
  server.keepAliveTimeout = 5000;
  connections.watch(server);
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  logger.info(
    { address: url },
    'inkstream accepting connections: the API answers 503 until the stores are open',
  );
  overrides.onListening?.(url);

  // What start-up has opened, in order: a later step that fails closes them in reverse, as stop() does.
  const opened: { what: string; close(): Promise<void> }[] = [];
  let platform: Platform;
  let background: Background;
  let signInThrottle: Awaited<ReturnType<typeof openSignInThrottle>>;
  let limits: Awaited<ReturnType<typeof openRateLimit>>;
  try {
    platform = await createPlatform(config, logger, overrides);
    opened.push({ what: 'the stores', close: () => platform.close() });
    await ensureApplicationCollections(platform.readStore);
    const issued = await bootstrapDefaultAccount(platform);
    if (issued) {
      const announce = overrides.announce ?? ((text: string) => process.stdout.write(text));
      announce(
        `\nFirst start: created account "default" with API key (shown once, store it now):\n\n  ${issued.key}\n\n` +
          `Try: curl -H "Authorization: Bearer ${issued.key}" http://localhost:${config.PORT}/api/v1/projects\n\n`,
      );
      announce(await firstOwnerLink(platform, issued.accountId));
    }
    background = await startBackground(
      platform,
      backgroundWork(platform, { pipeline: overrides.pipeline }),
      { leaseTtlMs: config.INKSTREAM_LEASE_TTL_MS },
    );
    opened.push({ what: 'the background work', close: () => background.stop() });
    limits = await openRateLimit(config, platform.mongo);
    opened.push({ what: 'the rate limit', close: () => limits.close() });
    signInThrottle = await openSignInThrottle(config, platform.mongo);
    opened.push({ what: 'the sign-in throttle', close: () => signInThrottle.close() });
  } catch (error) {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await closeInReverse(opened, logger);
    throw error;
  }
  const writer = writerState(llmConfigOf(config));
  const app = createApp(platform, {
    routes: allRoutes,
    rateLimit: limits.rateLimit,
    connections,
    health: { ready: createReadiness(platform, background, writer.writer) },
    beside: applicationHandler(platform, signInThrottle.throttle),
  });
  server.off('request', starting);
  server.on('request', app);
  logger.info(
    { url, stores: platform.storeKinds, ...writer },
    writer.writer === 'model'
      ? `inkstream listening; writer: the model ${writer.model}${config.OPENAI_BASE_URL ? ` at ${withoutCredentials(config.OPENAI_BASE_URL)}` : ''}`
      : 'inkstream listening; writer: offline (OPENAI_API_KEY is not set: drafts are briefs, not articles)',
  );

  let stopping: Promise<void> | null = null;
  return {
    platform,
    server,
    url,
    background,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        endLiveStreams(platform);
        await closed;
        await closeInReverse(opened, logger);
      })();
      return stopping;
    },
  };
}

/** Closes each in reverse order of opening; one that fails to close is logged and the rest still close. */
async function closeInReverse(
  opened: readonly { what: string; close(): Promise<void> }[],
  logger: Logger,
): Promise<void> {
  for (const { what, close } of [...opened].reverse()) {
    try {
      await close();
    } catch (error) {
      logger.warn({ err: error }, `closing ${what} failed`);
    }
  }
}

/** A base URL as it may be logged: any user name or password in it left out. */
function withoutCredentials(address: string): string {
  try {
    const url = new URL(address);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return 'a configured OPENAI_BASE_URL';
  }
}
