import { createApiKey } from '../../src/features/accounts/keys.ts';
import type { Config } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { startServer, type ServerOverrides } from '../../src/app/start.ts';

export type BenchApi = (method: string, path: string, body?: unknown) => Promise<any>;

/**
 * An in-process server for a benchmark, with its logs off, the first-start key banner kept out of
 * the bench's output, and an API client holding a key of an unlimited account.
 */
export async function startBenchServer(config: Config, overrides: ServerOverrides = {}) {
  const write = process.stdout.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  const server = await startServer(config, createLogger('silent'), overrides).finally(() => {
    process.stdout.write = write;
  });
  const { key } = await createApiKey(server.platform, { account: 'bench', plan: 'unlimited' });

  const api: BenchApi = async (method, path, body) => {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  return { server, api };
}
