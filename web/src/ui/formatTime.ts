/** Within this distance of now a time reads relative ("3 minutes ago", "in 2 hours"); further away, as a date. */
export const RELATIVE_WITHIN_MS = 24 * 3600_000;

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** The full time in the reader's locale and time zone (the tooltip, and every absolute time). */
export function absoluteTime(iso: string, locale?: string): string {
  return new Date(iso).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * An ISO time as a reader wants it: relative when within a day of `nowMs` ("5 minutes ago",
 * "in 3 hours", "now"), otherwise the date and time in the reader's locale. A day only
 * (`dateOnly`) is always absolute. Text that is not a time is shown as it is.
 */
export function formatTime(
  iso: string,
  nowMs: number,
  options: { dateOnly?: boolean; locale?: string } = {},
): string {
  const atMs = Date.parse(iso);
  if (Number.isNaN(atMs)) return iso;
  if (options.dateOnly)
    return new Date(atMs).toLocaleDateString(options.locale, { dateStyle: 'medium' });
  const distance = atMs - nowMs;
  if (Math.abs(distance) >= RELATIVE_WITHIN_MS) return absoluteTime(iso, options.locale);
  const relative = new Intl.RelativeTimeFormat(options.locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(distance) >= size || unit === 'second')
      return relative.format(Math.trunc(distance / size), unit);
  }
  return absoluteTime(iso, options.locale);
}
