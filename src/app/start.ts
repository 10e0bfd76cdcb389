import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { bootstrapDefaultAccount } from '../features/accounts/keys.ts';
import { applicationHandler, firstOwnerLink, openSignInThrottle } from '../features/application/index.ts';
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

export type RunningServer = { platform: Platform; server: Server; url: string; background: Background; stop(): Promise<void> };

export type ServerOverrides = {
  clock?: Clock; stores?: Stores; pipeline?: PipelineOptions; resolveHost?: ResolveHost;
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
export async function startServer(config: Config, logger: Logger, overrides: ServerOverrides = {}): Promise<RunningServer> {
  const httpOptions = serverOptions(config);
  const connections = createConnectionCap({ perAddress: config.INKSTREAM_CONNECTIONS_PER_ADDRESS, trustedProxies: config.INKSTREAM_TRUSTED_PROXIES });
  const starting = createStartingListener({ readiness: connectingReadiness, ids: createIdGenerator(() => (overrides.clock ?? systemClock).nowMs()) });
  const server = createServer(httpOptions, starting);
  server.keepAliveTimeout = 5000;
  connections.watch(server);
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  logger.info({ address: url }, 'inkstream accepting connections: the API answers 503 until the stores are open');
  overrides.onListening?.(url);

  let platform: Platform;
  let background: Background;
  let limits: Awaited<ReturnType<typeof openRateLimit>>;
  let signInThrottle: Awaited<ReturnType<typeof openSignInThrottle>>;
  try {
    platform = await createPlatform(config, logger, overrides);
    const issued = await bootstrapDefaultAccount(platform);
    if (issued) {
      const announce = overrides.announce ?? ((text: string) => process.stdout.write(text));
      announce(
        `\nFirst start: created account "default" with API key (shown once, store it now):\n\n  ${issued.key}\n\n` +
        `Try: curl -H "Authorization: Bearer ${issued.key}" http://localhost:${config.PORT}/api/v1/projects\n\n`,
      );
      announce(await firstOwnerLink(platform, issued.accountId));
    }
    background = await startBackground(platform, backgroundWork(platform, { pipeline: overrides.pipeline }), { leaseTtlMs: config.INKSTREAM_LEASE_TTL_MS });
    limits = await openRateLimit(config);
    signInThrottle = await openSignInThrottle(config);
  } catch (error) {
    await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });
    throw error;
  }
  const app = createApp(platform, {
    routes: allRoutes,
    rateLimit: limits.rateLimit,
    connections,
    health: { ready: createReadiness(platform, background) },
    beside: applicationHandler(platform, signInThrottle.throttle),
  });
  server.off('request', starting);
  server.on('request', app);
  logger.info({ url, stores: platform.storeKinds }, 'inkstream listening');

  let stopping: Promise<void> | null = null;
  return {
    platform, server, url, background,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => { server.close(() => resolve()); server.closeIdleConnections(); });
        endLiveStreams(platform);
        await closed;
        await background.stop();
        await limits.close();
        await signInThrottle.close();
        await platform.close();
      })();
      return stopping;
    },
  };
}
