/**
 * Keyed limits on outbound work: per key (a destination origin, a site, a model provider) at most
 * `concurrency` acquisitions are held at once, and, with a `rate`, at most `rate.limit` units of
 * cost start per window. Waiters of a key are served strictly in arrival order, so a costly head
 * is not overtaken; keys never wait for each other. `pauseUntil` holds a key's waiters until a
 * time (a Retry-After) without touching what is in flight.
 */
export type Release = () => void;

export type AcquireOptions = {
  /** Counted against the rate window (e.g. tokens); 1 by default. Every acquisition holds one slot. */
  cost?: number;
  /** Gives up waiting: the promise rejects with the signal's reason and takes nothing. */
  signal?: AbortSignal;
};

export type Limiter = {
  acquire(key: string, options?: AcquireOptions): Promise<Release>;
  run<T>(key: string, task: () => Promise<T>, options?: AcquireOptions): Promise<T>;
  pauseUntil(key: string, atMs: number): void;
  inFlight(key: string): number;
  waiting(key: string): number;
};

export type LimiterOptions = {
  concurrency: number;
  /** A fixed window per key: at most `limit` cost started per `windowMs` (a first acquisition always may). */
  rate?: { limit: number; windowMs: number };
  nowMs?: () => number;
};

type Waiter = {
  cost: number;
  grant(release: Release): void;
  signal?: AbortSignal;
  onAbort?: () => void;
};
type KeyState = {
  active: number;
  queue: Waiter[];
  pausedUntil: number;
  windowStart: number;
  windowUsed: number;
  timer: NodeJS.Timeout | null;
};

export function createLimiter(options: LimiterOptions): Limiter {
  const { concurrency, rate } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`concurrency limit must be a positive integer, got ${concurrency}`);
  const nowMs = options.nowMs ?? Date.now;
  const keys = new Map<string, KeyState>();

  const stateOf = (key: string): KeyState => {
    let state = keys.get(key);
    if (!state)
      keys.set(
        key,
        (state = {
          active: 0,
          queue: [],
          pausedUntil: 0,
          windowStart: 0,
          windowUsed: 0,
          timer: null,
        }),
      );
    return state;
  };

  const wakeAt = (key: string, state: KeyState, atMs: number) => {
    if (state.timer) clearTimeout(state.timer);
    state.timer = setTimeout(
      () => {
        state.timer = null;
        pump(key);
      },
      Math.max(0, atMs - nowMs()),
    );
    state.timer.unref?.();
  };

  const forgetIfIdle = (key: string, state: KeyState) => {
    const now = nowMs();
    const windowOpen =
      rate !== undefined && state.windowUsed > 0 && now < state.windowStart + rate.windowMs;
    if (
      state.active === 0 &&
      state.queue.length === 0 &&
      state.timer === null &&
      state.pausedUntil <= now &&
      !windowOpen
    )
      keys.delete(key);
  };

  function pump(key: string): void {
    const state = keys.get(key);
    if (!state) return;
    while (state.queue.length > 0 && state.active < concurrency) {
      const now = nowMs();
      if (now < state.pausedUntil) return wakeAt(key, state, state.pausedUntil);
      const head = state.queue[0];
      if (rate) {
        if (now >= state.windowStart + rate.windowMs) {
          state.windowStart = now;
          state.windowUsed = 0;
        }
        if (state.windowUsed > 0 && state.windowUsed + head.cost > rate.limit)
          return wakeAt(key, state, state.windowStart + rate.windowMs);
        state.windowUsed += head.cost;
      }
      state.queue.shift();
      if (head.onAbort) head.signal!.removeEventListener('abort', head.onAbort);
      state.active += 1;
      let released = false;
      head.grant(() => {
        if (released) return;
        released = true;
        state.active -= 1;
        pump(key);
        forgetIfIdle(key, state);
      });
    }
  }

  const acquire = (key: string, acquireOptions: AcquireOptions = {}): Promise<Release> =>
    new Promise((resolve, reject) => {
      const { signal } = acquireOptions;
      if (signal?.aborted) return reject(signal.reason);
      const state = stateOf(key);
      const waiter: Waiter = { cost: acquireOptions.cost ?? 1, grant: resolve, signal };
      if (signal) {
        waiter.onAbort = () => {
          const index = state.queue.indexOf(waiter);
          if (index >= 0) state.queue.splice(index, 1);
          reject(signal.reason);
          pump(key); // the head may have been what held the others back
          forgetIfIdle(key, state);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      state.queue.push(waiter);
      pump(key);
    });

  return {
    acquire,
    async run(key, task, acquireOptions) {
      const release = await acquire(key, acquireOptions);
      try {
        return await task();
      } finally {
        release();
      }
    },
    pauseUntil(key, atMs) {
      const state = stateOf(key);
      if (atMs <= state.pausedUntil) return;
      state.pausedUntil = atMs;
      if (state.queue.length > 0) wakeAt(key, state, atMs);
    },
    inFlight: (key) => keys.get(key)?.active ?? 0,
    waiting: (key) => keys.get(key)?.queue.length ?? 0,
  };
}
