/**
 * The quality gate's record: what each check found in a draft or revision, and the grounding the
 * model gave for it. Recorded on ArticleDrafted / ArticleRevised, so the history shows them.
 */

/** A passage of a crawled page (or a company fact) that a point or a claim rests on. */
export type Evidence = { point: string; url: string; quote: string };

/** A sentence of the draft with the page and the quoted passage the model says support it. */
export type Claim = { sentence: string; url: string; quote: string };

export type CheckStatus = 'pass' | 'warn' | 'fail';

export const CHECK_NAMES = [
  'grounding',
  'brandRules',
  'length',
  'keyword',
  'headings',
  'cliches',
  'links',
  'neutralised',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/**
 * One finding, located in the article's `body` (character offsets, end exclusive) so an
 * application can highlight it in place; null offsets when it is not in the body (a missing
 * heading, the title). Grounding findings carry the source passage they were checked against.
 */
export type CheckFinding = {
  text: string;
  start: number | null;
  end: number | null;
  note: string;
  source?: { url: string; passage: string } | null;
};

export type QualityCheck = {
  name: CheckName;
  status: CheckStatus;
  message: string;
  details: CheckFinding[];
};

/** What a project does with failing checks: only show them (default), or refuse approval. */
export type QualityGateMode = 'warn' | 'block';

export const failingChecks = (checks: readonly QualityCheck[]): QualityCheck[] =>
  checks.filter((check) => check.status === 'fail');
