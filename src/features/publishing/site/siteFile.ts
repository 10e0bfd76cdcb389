import type { FactSource, FieldRule } from '../../../domain/integrations/contentProfile.ts';

/** One file of a commit, at its path in the repository. */
export type SiteFile = { path: string; content: string | Buffer };

/**
 * Why a file cannot be committed as the site expects it: the field (null: the file as a whole),
 * what the site expects, and the repository file and line that say so.
 */
export type SiteProblem = {
  field: string | null;
  expected: string;
  source: FactSource | null;
  message: string;
};

const where = (source: FactSource | null): string =>
  !source
    ? 'the content profile'
    : source.file.startsWith('inkstream')
      ? 'your override'
      : `\`${source.file}\`${source.line ? ` line ${source.line}` : ''}`;

export function fieldProblem(rule: FieldRule, expected: string, what: string): SiteProblem {
  return {
    field: rule.name,
    expected,
    source: rule.source,
    message: `\`${rule.name}\` ${what} by ${where(rule.source)}`,
  };
}

export function fileProblem(
  expected: string,
  message: string,
  source: FactSource | null = null,
): SiteProblem {
  return {
    field: null,
    expected,
    source,
    message: source ? `${message} (${where(source)})` : message,
  };
}

/** All problems as one sentence each, for a 409 or an article's failure reason. */
export const describeProblems = (problems: readonly SiteProblem[]): string =>
  problems.map((problem) => problem.message.replace(/\.?$/, '.')).join(' ');
