/** Time arrives through a Clock so tests can move it without sleeping. */
export interface Clock {
  now(): string; // ISO 8601 UTC
  nowMs(): number;
}

export const systemClock: Clock = {
  now: () => new Date().toISOString(),
  nowMs: () => Date.now(),
};

/** A clock a test moves by hand. */
export function manualClock(start = '2026-01-01T00:00:00.000Z') {
  let ms = Date.parse(start);
  return {
    now: () => new Date(ms).toISOString(),
    nowMs: () => ms,
    advance(byMs: number) { ms += byMs; },
    set(iso: string) { ms = Date.parse(iso); },
  };
}
