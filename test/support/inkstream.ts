import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '../../src/features/accounts/keys.ts';
import type { PlanName } from '../../src/domain/accounts/plans.ts';
import { loadConfig } from '../../src/core/config.ts';
import type { Clock } from '../../src/core/clock.ts';
import { createLogger } from '../../src/core/logger.ts';
import type { ResolveHost } from '../../src/integrations/safeHttp/index.ts';
import type { PipelineOptions } from '../../src/features/pipeline/index.ts';
import { startServer, type RunningServer } from '../../src/app/start.ts';
import { openStores, type Stores } from '../../src/app/stores.ts';

/**
 * A real Inkstream on 127.0.0.1 with the embedded SQLite store in a fresh temp directory, as a
 * user would run it. `api(key)` returns a small client speaking JSON over real HTTP.
 */
export type TestInkstream = RunningServer & {
  dataDir: string;
  key: string;
  /** What the first start printed for the operator: the `default` account's key and the owner's one-time link. */
  announced: string;
  newKey(account: string, plan?: PlanName): Promise<string>;
  api(key?: string): ApiClient;
  close(): Promise<void>;
};

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers };

export type ApiClient = {
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  get<T = any>(path: string): Promise<ApiResponse<T>>;
  post<T = any>(
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body: unknown): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body: unknown): Promise<ApiResponse<T>>;
  delete<T = any>(path: string): Promise<ApiResponse<T>>;
};

export async function startInkstream(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    plan?: PlanName;
    pipeline?: PipelineOptions;
    /** Puts something between the server and its stores (latency, a lagging read model). */
    wrapStores?: (stores: Stores) => Stores;
    /** DNS for outbound URLs: a test points names at any address without touching the system resolver. */
    resolveHost?: ResolveHost;
  } = {},
): Promise<TestInkstream> {
  const dataDir = mkdtempSync(join(tmpdir(), 'inkstream-test-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    INKSTREAM_ALLOW_PRIVATE_URLS: '1',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    ...options.env,
  });
  const stdoutWrite = process.stdout.write;
  process.stdout.write = (() => true) as typeof process.stdout.write; // the first-start key banner
  let running: RunningServer;
  let announced = '';
  try {
    const stores = options.wrapStores && options.wrapStores(await openStores(config));
    running = await startServer(config, createLogger('silent'), {
      clock: options.clock,
      pipeline: options.pipeline,
      stores,
      resolveHost: options.resolveHost,
      announce: (text) => {
        announced += text;
      },
    });
  } finally {
    process.stdout.write = stdoutWrite;
  }
  const newKey = async (account: string, plan: PlanName = 'unlimited') =>
    (await createApiKey(running.platform, { account, plan })).key;
  const key = await newKey('test', options.plan ?? 'unlimited');
  const api = (apiKey: string = key): ApiClient => {
    const request = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const response = await fetch(`${running.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body:
          body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON: keep the text */
      }
      return { status: response.status, body: parsed as any, headers: response.headers };
    };
    return {
      request,
      get: (path) => request('GET', path),
      post: (path, body, headers) => request('POST', path, body, headers),
      patch: (path, body) => request('PATCH', path, body),
      put: (path, body) => request('PUT', path, body),
      delete: (path) => request('DELETE', path),
    };
  };
  return {
    ...running,
    dataDir,
    key,
    announced,
    newKey,
    api,
    async close() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
