import { expect, test } from 'vitest';
import {
  articlesPerDay,
  latestSlot,
  zonedTimeToUtc,
} from '../../../../src/features/pipeline/schedule/cadence.ts';
import type { Cadence } from '../../../../src/domain/projects/settings.ts';

const cadence = (patch: Partial<Cadence> = {}): Cadence => ({
  enabled: true,
  articlesPerWeek: 1,
  days: ['tue'],
  time: '09:00',
  timezone: 'UTC',
  minApprovedBacklog: 3,
  ...patch,
});
const slotAt = (c: Cadence, now: string) => {
  const slot = latestSlot(c, Date.parse(now));
  return slot && { at: new Date(slot.at).toISOString(), articles: slot.articles };
};

test("a week's articles spread over the listed days, earlier days taking the remainder", () => {
  expect(Object.fromEntries(articlesPerDay({ articlesPerWeek: 3, days: ['thu', 'tue'] }))).toEqual({
    tue: 2,
    thu: 1,
  });
  expect(Object.fromEntries(articlesPerDay({ articlesPerWeek: 1, days: ['mon', 'thu'] }))).toEqual({
    mon: 1,
    thu: 0,
  });
  expect(
    [...articlesPerDay({ articlesPerWeek: 7, days: ['mon', 'wed', 'fri'] }).values()].reduce(
      (a, b) => a + b,
    ),
  ).toBe(7);
});

test("the latest slot is the last listed day at the local time, in the project's time zone", () => {
  const berlin = cadence({ timezone: 'Europe/Berlin', days: ['tue', 'thu'], articlesPerWeek: 3 });
  expect(slotAt(berlin, '2026-01-06T07:59:59Z')).toEqual({
    at: '2026-01-01T08:00:00.000Z',
    articles: 1,
  });
  expect(slotAt(berlin, '2026-01-06T08:00:00Z')).toEqual({
    at: '2026-01-06T08:00:00.000Z',
    articles: 2,
  });
  expect(slotAt(berlin, '2026-07-07T07:30:00Z')).toEqual({
    at: '2026-07-07T07:00:00.000Z',
    articles: 2,
  }); // summer time
  expect(
    slotAt(
      cadence({ timezone: 'America/Los_Angeles', days: ['sun'], time: '23:30' }),
      '2026-01-05T08:00:00Z',
    ),
  ).toEqual({ at: '2026-01-05T07:30:00.000Z', articles: 1 }); // Sunday night there is Monday morning in UTC
  expect(
    slotAt(cadence({ articlesPerWeek: 1, days: ['mon', 'thu'] }), '2026-01-09T12:00:00Z'),
  ).toEqual({ at: '2026-01-05T09:00:00.000Z', articles: 1 });
});

test('wall-clock times convert across daylight-saving changes', () => {
  expect(
    new Date(zonedTimeToUtc(Date.UTC(2026, 2, 29), '09:00', 'Europe/Berlin')).toISOString(),
  ).toBe('2026-03-29T07:00:00.000Z');
  expect(
    new Date(zonedTimeToUtc(Date.UTC(2026, 9, 25), '09:00', 'Europe/Berlin')).toISOString(),
  ).toBe('2026-10-25T08:00:00.000Z');
});
