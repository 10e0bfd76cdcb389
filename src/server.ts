import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { bootstrapDefaultAccount } from './accounts/keys.ts';
import { startBackground, type Background } from './background.ts';
import type { Config } from './config.ts';
import type { Clock } from './core/clock.ts';
import { createApp } from './http/app.ts';
import { createConnectionCap } from './http/connectionCap.ts';
import { openRateLimit } from './http/rateLimitStore.ts';
import type { ResolveHost } from './integrations/safeHttp/index.ts';
import { allRoutes } from './http/routes.ts';
import { answerClientErrors, serverOptions } from './http/serverLimits.ts';
import { backgroundJobs } from './jobs.ts';
import type { PipelineOptions } from './pipeline/index.ts';
import { createReadiness } from './readiness.ts';
import { createServices, type Services } from './services.ts';
import type { Stores } from './stores.ts';

export type RunningServer = { services: Services; server: Server; url: string; background: Background; stop(): Promise<void> };

/** Builds the services, starts the background consumers and serves HTTP; `stop` shuts down gracefully. */
export async function startServer(
  config: Config, logger: Logger, overrides: { clock?: Clock; stores?: Stores; pipeline?: PipelineOptions; resolveHost?: ResolveHost } = {},
): Promise<RunningServer> {
  const httpOptions = serverOptions(config);
  const services = await createServices(config, logger, overrides);
  const issued = await bootstrapDefaultAccount(services);
  if (issued) {
    process.stdout.write(
      `\nFirst start: created account "default" with API key (shown once, store it now):\n\n  ${issued.key}\n\n` +
      `Try: curl -H "Authorization: Bearer ${issued.key}" http://localhost:${config.PORT}/api/v1/projects\n\n`,
    );
  }
  const background = await startBackground(services, backgroundJobs(services, { pipeline: overrides.pipeline }), { leaseTtlMs: config.INKSTREAM_LEASE_TTL_MS });
  const limits = await openRateLimit(config);
  const connections = createConnectionCap({ perAddress: config.INKSTREAM_CONNECTIONS_PER_ADDRESS, trustedProxies: config.INKSTREAM_TRUSTED_PROXIES });
  const app = createApp(services, {
    routes: allRoutes,
    rateLimit: limits.rateLimit,
    connections,
    health: { ready: createReadiness(services, background) },
  });
  const server = createServer(httpOptions, app);
  server.keepAliveTimeout = 5000;
  connections.watch(server);
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  logger.info({ url, stores: services.storeKinds }, 'inkstream listening');

  let stopping: Promise<void> | null = null;
  return {
    services, server, url, background,
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeIdleConnections(); });
        await background.stop();
        await limits.close();
        await services.close();
      })();
      return stopping;
    },
  };
}
