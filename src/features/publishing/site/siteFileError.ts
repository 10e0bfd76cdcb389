import { describeProblems, type SiteProblem } from './siteFile.ts';

/** The file cannot be written as the site expects it: nothing is committed, and trying again cannot help. */
export class SiteFileError extends Error {
  readonly problems: readonly SiteProblem[];
  constructor(problems: readonly SiteProblem[]) {
    super(describeProblems(problems));
    this.name = 'SiteFileError';
    this.problems = problems;
  }
}
