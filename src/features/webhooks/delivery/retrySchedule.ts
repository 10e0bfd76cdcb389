/**
 * When a failed delivery is tried again. The first attempt is immediate; then, as the best
 * senders do it: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts over about 28 hours), each
 * delay with ±20% jitter so that endpoints recovering from an outage are not hit all at once.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

export const RETRY_JITTER = 0.2;

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `INKSTREAM_WEBHOOK_RETRY_DELAYS`, e.g. `1s,1s,2s` or `500ms,5m,1h`: the delays after each failed attempt. */
export function parseRetryDelays(text: string | undefined): number[] {
  if (text === undefined || text.trim() === '') return [...DEFAULT_RETRY_DELAYS_MS];
  return text.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(part);
    if (!match) {
      throw new Error(
        `INKSTREAM_WEBHOOK_RETRY_DELAYS: "${part.trim()}" is not a delay; write numbers with a unit (ms, s, m, h) separated by commas, e.g. 1s,1s,2s`,
      );
    }
    return Math.round(Number(match[1]) * UNITS[match[2]]);
  });
}

/**
 * The delay before the next attempt after `failedAttempts` failures in this run, or null when the
 * schedule is exhausted. `random` is in [0, 1).
 */
export function nextRetryDelay(
  delays: readonly number[],
  failedAttempts: number,
  random: () => number,
): number | null {
  if (failedAttempts < 1 || failedAttempts > delays.length) return null;
  const base = delays[failedAttempts - 1];
  return Math.max(0, Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random())));
}

/** `Retry-After` in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, nowMs: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
