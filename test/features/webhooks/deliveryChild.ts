/**
 * A child process that does what the server does for webhooks, and only that: the projections,
 * the outbox consumer and the dispatcher over DATA_DIR. The crash test kills it with SIGKILL.
 */
import { startBackground } from '../../../src/app/background.ts';
import { loadConfig } from '../../../src/core/config.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { createPlatform } from '../../../src/app/platform.ts';
import { webhooksFeature } from '../../../src/features/webhooks/index.ts';

const platform = await createPlatform(loadConfig(process.env), createLogger('silent'));
const background = await startBackground(platform, webhooksFeature.background!(platform));
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void background
    .stop()
    .then(() => platform.close())
    .then(() => process.exit(0));
});
