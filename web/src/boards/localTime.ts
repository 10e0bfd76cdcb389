/** Times on the boards: shown and picked in the member's own time zone, sent to the API as UTC. */
export const timeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** `2026-12-01T09:30` from an `<input type="datetime-local">`, read as local time, as ISO 8601 UTC; null when it is not a time. */
export function localInputToUtc(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** An ISO time as the input's value in local time (to start the picker at the current schedule). */
export function utcToLocalInput(iso: string): string {
  const time = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}T${pad(time.getHours())}:${pad(time.getMinutes())}`;
}
