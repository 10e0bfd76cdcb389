import type { Build } from '../../../domain/articles/build.ts';
import { markdownLink, markdownText } from '../markdown.ts';

/**
 * The "Site build" part of the pull request's description: the build's state for the head
 * commit, the preview, and a row per check. Names, details and URLs were written by the site's
 * CI: escaped, on one line, linked only when https (../markdown.ts).
 */
const LABEL: Record<Build['state'], string> = {
  pending: 'running',
  success: 'passed',
  failure: 'failed',
  none: 'no checks reported yet',
  unknown: 'unknown',
};
const CHECK_LABEL = {
  pending: 'running',
  success: 'passed',
  failure: 'failed',
  neutral: 'neutral',
};
const MAX_ROWS = 20;
const CELL = 300;

export function buildSection(build: Build | null | undefined): string[] {
  if (!build) return [];
  const preview = build.previewUrl ? ` · ${markdownLink('preview', build.previewUrl, CELL)}` : '';
  const lines = [
    '### Site build',
    `**${LABEL[build.state]}** on \`${build.headSha.slice(0, 7)}\`${preview}`,
  ];
  if (build.reason) lines.push('', `> ${markdownText(build.reason, 600)}`);
  if (build.checks.length) {
    lines.push('', '| Check | Result | Detail |', '|---|---|---|');
    for (const check of build.checks.slice(0, MAX_ROWS)) {
      const name = check.url
        ? markdownLink(check.name, check.url, CELL)
        : markdownText(check.name, CELL);
      lines.push(
        `| ${name} | ${CHECK_LABEL[check.state]} | ${check.detail ? markdownText(check.detail, CELL) : ''} |`,
      );
    }
  }
  return lines;
}
