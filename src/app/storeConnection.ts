import { isSqliteBusy } from '../core/sqliteBusy.ts';
/**
 * Start-up while a store is not reachable yet (EventStoreDB electing a leader, MongoDB still
 * starting, a network partition): wait and try again with backoff instead of exiting, so an
 * orchestrator's restart loop is not the retry policy. `state` is what readiness reports meanwhile.
 */
export type StoreConnection = {
  readonly state: 'connecting' | 'ok';
  /** The last reason a store could not be reached, while connecting. */
  readonly lastError: string | null;
  /** Runs `contact` until it succeeds or fails for a reason waiting cannot fix. */
  establish<T>(what: string, contact: () => Promise<T>): Promise<T>;
  /** Once every store answered. */
  connected(): void;
};

export type StoreConnectionOptions = {
  /** Waits between attempts; the last one repeats. */
  delaysMs?: readonly number[];
  /** Give up after this long (the admin CLI); the server waits as long as it takes. */
  giveUpAfterMs?: number;
  wait?: (ms: number) => Promise<void>;
  nowMs?: () => number;
  onRetry?: (what: string, error: unknown, delayMs: number) => void;
};

const DEFAULT_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000, 10_000];

/** Errors a store gives while it is unreachable, without a leader or locked by another process; anything else is a real failure. */
export function isStoreUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { type, name, code } = error as { type?: unknown; name?: unknown; code?: unknown };
  return (
    (code === 'ERR_SQLITE_ERROR' && isSqliteBusy(error)) || // another process holds the write lock
    (typeof type === 'string' &&
      ['unavailable', 'not-leader', 'deadline-exceeded', 'timeout'].includes(type)) || // @eventstore/db-client
    (typeof name === 'string' &&
      ['MongoServerSelectionError', 'MongoNetworkError', 'MongoNetworkTimeoutError'].includes(
        name,
      )) ||
    (typeof code === 'string' &&
      ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT'].includes(code))
  );
}

export function createStoreConnection(options: StoreConnectionOptions = {}): StoreConnection {
  const delays = options.delaysMs ?? DEFAULT_DELAYS_MS;
  const wait =
    options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const nowMs = options.nowMs ?? Date.now;
  let state: StoreConnection['state'] = 'connecting';
  let lastError: string | null = null;
  return {
    get state() {
      return state;
    },
    get lastError() {
      return lastError;
    },
    async establish(what, contact) {
      const started = nowMs();
      for (let attempt = 0; ; attempt++) {
        try {
          return await contact();
        } catch (error) {
          if (!isStoreUnavailable(error)) throw error;
          lastError = `${what}: ${(error as Error).message}`;
          const delayMs = delays[Math.min(attempt, delays.length - 1)];
          if (
            options.giveUpAfterMs !== undefined &&
            nowMs() + delayMs - started > options.giveUpAfterMs
          ) {
            throw new Error(
              `${what} is unreachable (${(error as Error).message}); gave up after ${Math.round((nowMs() - started) / 1000)} s`,
              { cause: error },
            );
          }
          options.onRetry?.(what, error, delayMs);
          await wait(delayMs);
        }
      }
    },
    connected() {
      state = 'ok';
      lastError = null;
    },
  };
}
