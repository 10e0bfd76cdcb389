import { AppError } from '../../core/errors.ts';
import type { StoredEvent } from '../../eventstore/port.ts';

/** A point in a stream's past: a revision (0-based) or an ISO 8601 time. */
export type PointInTime = { revision: bigint } | { time: string };

export function parsePointInTime(value: string): PointInTime {
  if (/^\d{1,15}$/.test(value)) return { revision: BigInt(value) };
  const ms = Date.parse(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(ms))
    return { time: new Date(ms).toISOString() };
  throw new AppError(
    'validation_failed',
    '"at" is a revision number (0, 1, …) or an ISO 8601 time.',
    { details: [{ path: 'query.at', message: 'a revision or an ISO 8601 time' }] },
  );
}

/** The events of a stream up to and including the point; empty when the stream did not exist yet. */
export function eventsUpTo(events: readonly StoredEvent[], point: PointInTime): StoredEvent[] {
  if ('revision' in point) return events.filter((event) => event.revision <= point.revision);
  return events.filter((event) => event.createdAt <= point.time);
}
