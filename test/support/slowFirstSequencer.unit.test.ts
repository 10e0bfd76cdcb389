import { expect, test } from 'vitest';
import { estimatedMs } from './slowFirstSequencer.ts';

test('on a fresh clone, browser files weigh most, then CLI and crash files, other e2e, int, unit', () => {
  const files = [
    'test/core/ids.unit.test.ts',
    'test/http/auth.int.test.ts',
    'test/features/pipeline/e2e.test.ts',
    'test/features/publishing/publish.e2e.test.ts',
    'test/cli/backup.int.test.ts',
    'test/consumers/crash.e2e.test.ts',
    'test/web/loop.e2e.test.ts',
    'test/web/ranking.unit.test.ts',
  ];
  const heaviestFirst = [...files].sort((a, b) => estimatedMs(b) - estimatedMs(a));
  expect(heaviestFirst.map(estimatedMs)).toEqual([
    30_000, 15_000, 15_000, 5_000, 5_000, 2_000, 500, 500,
  ]);
  expect(heaviestFirst.slice(0, 3)).toEqual([
    'test/web/loop.e2e.test.ts',
    'test/cli/backup.int.test.ts',
    'test/consumers/crash.e2e.test.ts',
  ]);
});
