import { WEEKDAYS, type Cadence } from '../../../domain/projects/settings.ts';

export type CadenceSlot = { at: number; articles: number };

const DAY_MS = 86_400_000;

/** Wall-clock minus UTC, in ms, for the zone at instant `t` (DST included). */
function zoneOffsetMs(timeZone: string, t: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(t));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return (
    Date.UTC(
      part('year'),
      part('month') - 1,
      part('day'),
      part('hour'),
      part('minute'),
      part('second'),
    ) -
    Math.floor(t / 1000) * 1000
  );
}

/** The instant a wall-clock time in the zone happens (the later reading wins across a DST change). */
export function zonedTimeToUtc(dateUtcMidnight: number, time: string, timeZone: string): number {
  const [hours, minutes] = time.split(':').map(Number);
  const wall = dateUtcMidnight + hours * 3_600_000 + minutes * 60_000;
  const first = wall - zoneOffsetMs(timeZone, wall);
  return wall - zoneOffsetMs(timeZone, first);
}

/**
 * How many of the week's articles fall on each listed day: spread evenly in weekday order,
 * earlier days taking the remainder (3 a week on tue/thu: 2 on Tuesday, 1 on Thursday; 1 a week
 * on mon/thu: Monday only).
 */
export function articlesPerDay(
  cadence: Pick<Cadence, 'articlesPerWeek' | 'days'>,
): Map<string, number> {
  const days = WEEKDAYS.filter((day) => cadence.days.includes(day));
  const n = cadence.articlesPerWeek;
  return new Map(
    days.map((day, i) => [
      day,
      Math.ceil(((i + 1) * n) / days.length) - Math.ceil((i * n) / days.length),
    ]),
  );
}

/** The most recent slot at or before `nowMs` (a listed day at `time` in `timezone`) that has articles; null if none within a week. */
export function latestSlot(cadence: Cadence, nowMs: number): CadenceSlot | null {
  const perDay = articlesPerDay(cadence);
  const local = new Date(nowMs + zoneOffsetMs(cadence.timezone, nowMs));
  const today = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  for (let back = 0; back <= 7; back++) {
    const date = today - back * DAY_MS;
    const articles = perDay.get(WEEKDAYS[(new Date(date).getUTCDay() + 6) % 7]) ?? 0;
    if (articles === 0) continue;
    const at = zonedTimeToUtc(date, cadence.time, cadence.timezone);
    if (at <= nowMs) return { at, articles };
  }
  return null;
}
