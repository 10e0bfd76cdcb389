import { test, expect } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { createIdGenerator, deriveEventId, isIdOf } from '../../src/core/ids.ts';

test('ids carry their prefix and sort by creation time', () => {
  let now = 1_700_000_000_000;
  const ids = createIdGenerator(() => now);
  const first = ids.next('prj');
  now += 1;
  const second = ids.next('prj');
  expect(isIdOf('prj', first)).toBe(true);
  expect(first < second).toBe(true);
});

test('event ids derived from the same command are equal UUIDs, from another command or position different', () => {
  const a = deriveEventId('usage-acc_1_2026-11', 'cmd-1', 0);
  expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(deriveEventId('usage-acc_1_2026-11', 'cmd-1', 0)).toBe(a);
  expect(deriveEventId('usage-acc_1_2026-11', 'cmd-1', 1)).not.toBe(a);
  expect(deriveEventId('usage-acc_1_2026-11', 'cmd-2', 0)).not.toBe(a);
});

test("an entity's event ids start with the entity's time, so later entities' events sort after earlier ones", () => {
  let now = 1_763_800_000_000;
  const ids = createIdGenerator(() => now);
  const earlier = `topic-${ids.next('tpc')}`;
  now += 1;
  const later = `topic-${ids.next('tpc')}`;
  const first = deriveEventId(earlier, 'cmd-9', 0);
  expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(first.replace('-', '').slice(0, 12)).toBe(
    (1_763_800_000_000).toString(16).padStart(12, '0'),
  );
  expect(deriveEventId(earlier, 'cmd-9', 0)).toBe(first);
  expect(deriveEventId(earlier, 'cmd-9', 1)).not.toBe(first);
  for (const command of ['cmd-1', 'cmd-5', 'cmd-9'])
    expect(deriveEventId(later, command, 0) > first).toBe(true);
});

test('the test runner runs on Node 24 with node:sqlite', () => {
  expect(process.versions.node.split('.')[0]).toBe('24');
  expect(new DatabaseSync(':memory:').prepare('select 1 as one').get()).toEqual({ one: 1 });
});
