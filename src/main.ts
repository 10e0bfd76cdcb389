import { loadConfig } from './core/config.ts';
import { createLogger } from './core/logger.ts';
import { loadEnvFileOfWorkingDirectory } from './app/envFile.ts';
import { startServer } from './app/start.ts';

loadEnvFileOfWorkingDirectory();
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const running = await startServer(config, logger);

let signals = 0;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (++signals > 1) process.exit(1);
    logger.info({ signal }, 'shutting down: finishing in-flight requests and the current event');
    running.stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'unclean shutdown');
        process.exit(1);
      },
    );
  });
}
