import { expect, test } from 'vitest';
import { CHECK_NAMES } from '../../../../../src/domain/articles/quality.ts';
import { runChecks } from '../../../../../src/features/pipeline/writing/checks/index.ts';
import { BASE, FIXTURES } from './draftFixtures.ts';

test('the fixture set holds at least 20 drafts, bad and good', () => {
  expect(FIXTURES.length).toBeGreaterThanOrEqual(20);
  expect(
    FIXTURES.filter((fixture) => Object.keys(fixture.expected).length === 0).length,
  ).toBeGreaterThanOrEqual(3);
});

test.each(FIXTURES)('$name: every check reaches its expected verdict', ({ input, expected }) => {
  const draft = { ...BASE, ...input };
  const checks = runChecks(draft);
  expect(checks.map((check) => check.name)).toEqual([...CHECK_NAMES]);
  const verdicts = Object.fromEntries(checks.map((check) => [check.name, check.status]));
  expect(verdicts).toEqual(
    Object.fromEntries(CHECK_NAMES.map((name) => [name, expected[name] ?? 'pass'])),
  );
  for (const check of checks) {
    for (const finding of check.details)
      if (finding.start !== null)
        expect(draft.body.slice(finding.start, finding.end ?? undefined)).toBe(finding.text);
  }
});
