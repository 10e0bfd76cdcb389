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

test('event ids derived from the same command are equal UUIDs, from another command different', () => {
  const a = deriveEventId('cmd-1', '0');
  expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(deriveEventId('cmd-1', '0')).toBe(a);
  expect(deriveEventId('cmd-1', '1')).not.toBe(a);
});

test('the test runner runs on Node 24 with node:sqlite', () => {
  expect(process.versions.node.split('.')[0]).toBe('24');
  expect(new DatabaseSync(':memory:').prepare('select 1 as one').get()).toEqual({ one: 1 });
});
