import { expect, test } from 'vitest';
import { absoluteTime, formatTime } from '../../web/src/ui/formatTime.ts';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const en = { locale: 'en-GB' };

test('text that is not a time is shown as it is, not as "Invalid Date"', () => {
  expect(formatTime('not a time', NOW, en)).toBe('not a time');
  expect(formatTime('<b>x</b>', NOW, en)).toBe('<b>x</b>');
});

test('within a day a time reads relative, in the past and the future', () => {
  expect(formatTime(at(0), NOW, en)).toBe('now');
  expect(formatTime(at(-30_000), NOW, en)).toBe('30 seconds ago');
  expect(formatTime(at(-5 * 60_000), NOW, en)).toBe('5 minutes ago');
  expect(formatTime(at(-3 * 3600_000), NOW, en)).toBe('3 hours ago');
  expect(formatTime(at(2 * 3600_000 + 60_000), NOW, en)).toBe('in 2 hours');
  expect(formatTime(at(-23 * 3600_000 - 59 * 60_000), NOW, en)).toBe('23 hours ago');
});

test("a day or more away a time is the date and time in the reader's locale", () => {
  const dayAgo = at(-24 * 3600_000);
  expect(formatTime(dayAgo, NOW, en)).toBe(absoluteTime(dayAgo, 'en-GB'));
  expect(formatTime(dayAgo, NOW, en)).toMatch(/24 Nov 2026/);
  expect(formatTime(at(3 * 24 * 3600_000), NOW, { locale: 'de-DE' })).toMatch(/28\.11\.2026/);
  expect(formatTime(at(-3 * 3600_000), NOW, { locale: 'de-DE' })).toBe('vor 3 Stunden');
});

test('a day only is always the date, even within the day', () => {
  expect(formatTime(at(-60_000), NOW, { dateOnly: true, locale: 'en-GB' })).toBe('25 Nov 2026');
});
