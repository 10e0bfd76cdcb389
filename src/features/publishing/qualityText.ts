import type { QualityCheck } from '../../domain/articles/quality.ts';
import { markdownText } from './markdown.ts';

/**
 * The quality gate as people read it on GitHub: a table in the pull request description and a
 * commit status on the head commit. Messages and findings quote the model's and the site's text,
 * so every one is escaped as one line of Markdown.
 */
const MARK = { pass: '✅ pass', warn: '⚠️ warn', fail: '❌ fail' } as const;
const CELL = 300;
const FINDINGS_PER_CHECK = 5;

export const QUALITY_STATUS_CONTEXT = 'inkstream/quality';

export function qualitySection(checks: readonly QualityCheck[]): string[] {
  if (checks.length === 0) return [];
  // A finding is quoted only where it stands in the body; the title is already in the description once.
  const findings = checks
    .filter((check) => check.status !== 'pass')
    .flatMap((check) => {
      const shown = check.details
        .slice(0, FINDINGS_PER_CHECK)
        .map(
          (finding) =>
            `- **${check.name}**: ${finding.text && finding.start !== null ? `${markdownText(finding.text, CELL)} — ` : ''}${markdownText(finding.note, CELL)}`,
        );
      const more = check.details.length - shown.length;
      return more > 0 ? [...shown, `- **${check.name}**: and ${more} more`] : shown;
    });
  return [
    '### Quality checks',
    '| Check | Result | |',
    '|---|---|---|',
    ...checks.map(
      (check) => `| ${check.name} | ${MARK[check.status]} | ${markdownText(check.message, CELL)} |`,
    ),
    ...(findings.length ? ['', ...findings] : []),
  ];
}

/** `failure` while any check fails, else `success`; the description names the failing checks (GitHub keeps 140 characters). */
export function qualityStatus(checks: readonly QualityCheck[]): {
  state: 'success' | 'failure';
  description: string;
} {
  const failing = checks.filter((check) => check.status === 'fail').map((check) => check.name);
  const warnings = checks.filter((check) => check.status === 'warn').length;
  const warned = warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : '';
  if (failing.length)
    return {
      state: 'failure',
      description: `Failing: ${failing.join(', ')}${warned}`.slice(0, 140),
    };
  return {
    state: 'success',
    description: `All ${checks.length} checks pass${warned}`.slice(0, 140),
  };
}
