/**
 * A whole Inkstream (API, pipeline, publisher) in a child process, for kill -9 tests. Prints
 * `READY {"url","key"}` once it serves; the parent kills it whenever it likes.
 */
import { createApiKey } from '../../../src/features/accounts/keys.ts';
import { loadConfig } from '../../../src/core/config.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { startServer } from '../../../src/app/start.ts';

const config = loadConfig({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  INKSTREAM_ALLOW_PRIVATE_URLS: '1',
});
const write = process.stdout.write.bind(process.stdout);
const running = await startServer(config, createLogger('silent'), { announce: () => {} });
const { key } = await createApiKey(running.platform, { account: 'crash', plan: 'unlimited' });
write(`READY ${JSON.stringify({ url: running.url, key })}\n`);
