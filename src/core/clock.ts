/** Time arrives through a Clock so tests can move it without sleeping. */
export interface Clock {
  now(): string; // ISO 8601 UTC
  nowMs(): number;
}

// Formatting a date goes through printf in V8; under load many events share a millisecond.
let lastMs = Number.NaN;
let lastIso = '';

export const systemClock: Clock = {
  now() {
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  },
  nowMs: () => Date.now(),
};

/** A clock a test moves by hand. */
export function manualClock(start = '2026-01-01T00:00:00.000Z') {
  let ms = Date.parse(start);
  return {
    now: () => new Date(ms).toISOString(),
    nowMs: () => ms,
    advance(byMs: number) {
      ms += byMs;
    },
    set(iso: string) {
      ms = Date.parse(iso);
    },
  };
}
