import type { QualityCheck } from './articleApi.ts';
import type { FindingRange } from './safeMarkdown.ts';

export type Finding = QualityCheck['details'][number] & {
  id: string;
  check: QualityCheck['name'];
  status: 'warn' | 'fail';
};

/** The findings of the checks that did not pass, each with an id its mark in the text and its note share. */
export function findingsOf(checks: readonly QualityCheck[]): Finding[] {
  return checks.flatMap((check, checkIndex) =>
    check.status === 'pass'
      ? []
      : check.details.map((detail, index) => ({
          ...detail,
          id: `finding-${checkIndex}-${index}`,
          check: check.name,
          status: check.status as 'warn' | 'fail',
        })),
  );
}

/** Where each finding sits in the body: only those with offsets (a missing heading or the title has none). */
export function rangesOf(findings: readonly Finding[]): FindingRange[] {
  return findings.flatMap((finding) =>
    finding.start === null || finding.end === null || finding.end <= finding.start
      ? []
      : [{ start: finding.start, end: finding.end, id: finding.id, status: finding.status }],
  );
}
