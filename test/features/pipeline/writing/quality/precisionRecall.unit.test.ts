import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { CHECK_NAMES, type CheckName } from '../../../../../src/domain/articles/quality.ts';
import { runChecks } from '../../../../../src/features/pipeline/writing/checks/index.ts';
import { BASE, FIXTURES } from './draftFixtures.ts';

const DOC = join(import.meta.dirname, '../../../../../docs/content-quality.md');

/**
 * Each check as a detector over the labelled fixture set: a fixture is a positive for a check when
 * its expected verdict is warn or fail. A false alarm is a correct text the check does not pass; a
 * miss is a seeded fault it passes.
 */
function scores() {
  const runs = FIXTURES.map((fixture) => ({
    fixture,
    verdicts: Object.fromEntries(
      runChecks({ ...BASE, ...fixture.input }).map((check) => [check.name, check.status]),
    ) as Record<CheckName, string>,
  }));
  return CHECK_NAMES.map((name) => {
    let truePositives = 0;
    const falseAlarms: string[] = [];
    const misses: string[] = [];
    for (const { fixture, verdicts } of runs) {
      const seeded = (fixture.expected[name] ?? 'pass') !== 'pass';
      const flagged = verdicts[name] !== 'pass';
      if (seeded && flagged) truePositives++;
      if (!seeded && flagged) falseAlarms.push(fixture.name);
      if (seeded && !flagged) misses.push(fixture.name);
    }
    const ratio = (part: number, whole: number) => (whole === 0 ? '—' : (part / whole).toFixed(2));
    return {
      name,
      seeded: truePositives + misses.length,
      truePositives,
      falseAlarms,
      misses,
      precision: ratio(truePositives, truePositives + falseAlarms.length),
      recall: ratio(truePositives, truePositives + misses.length),
    };
  });
}

test('the fixture set holds at least 80 drafts, half of them correct texts that must pass', () => {
  expect(FIXTURES.length).toBeGreaterThanOrEqual(80);
  const correct = FIXTURES.filter((fixture) => Object.keys(fixture.expected).length === 0);
  expect(correct.length * 2).toBeGreaterThanOrEqual(FIXTURES.length);
});

test('no check raises a false alarm on a correct text or misses a seeded fault', () => {
  for (const score of scores()) {
    expect(score.falseAlarms, `${score.name}: false alarms`).toEqual([]);
    expect(score.misses, `${score.name}: missed faults`).toEqual([]);
  }
});

test('docs/content-quality.md reports the precision and recall the fixture set measures', () => {
  const correct = FIXTURES.filter((fixture) => Object.keys(fixture.expected).length === 0).length;
  const table = [
    `Measured on ${FIXTURES.length} labelled drafts, ${correct} of them correct texts that must pass:`,
    '',
    '| check | seeded faults | caught | false alarms | precision | recall |',
    '|---|---|---|---|---|---|',
    ...scores().map(
      (s) =>
        `| \`${s.name}\` | ${s.seeded} | ${s.truePositives} | ${s.falseAlarms.length} | ${s.precision} | ${s.recall} |`,
    ),
  ].join('\n');
  const doc = readFileSync(DOC, 'utf8');
  const between = /<!-- precision-recall:start -->\n([\s\S]*?)\n<!-- precision-recall:end -->/.exec(
    doc,
  );
  expect(between?.[1], `the table for docs/content-quality.md:\n${table}`).toBe(table);
});
