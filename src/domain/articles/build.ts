/**
 * The site's own build of the article's pull request, as GitHub reports it on the head commit:
 * check runs (or, for a fine-grained token that cannot read them, the Actions jobs), commit
 * statuses (Vercel, Netlify, Cloudflare Pages) and deployment statuses (the preview URL).
 * Inkstream's own `inkstream/quality` status is never part of it. Every text in it came from the
 * repository's CI: it is bounded, on one line, and shown as text.
 */
export type BuildState = 'pending' | 'success' | 'failure' | 'none' | 'unknown';
export type BuildCheckState = 'pending' | 'success' | 'failure' | 'neutral';

export type BuildCheck = {
  name: string;
  state: BuildCheckState;
  /** An https URL of the check's page, or null. */
  url: string | null;
  /** For a failed check: its failing annotations or the summary GitHub gives, as text. */
  detail: string | null;
};

export type Build = {
  state: BuildState;
  checks: BuildCheck[];
  /** The newest deployment's `environment_url` (https only), the site's preview. */
  previewUrl: string | null;
  /** Why the build is `unknown`, or which failing annotations point at Inkstream's file. */
  reason: string | null;
  headSha: string;
};

/** The build's state from its checks: any failure fails it, any pending keeps it pending. */
export function buildStateOf(
  checks: readonly BuildCheck[],
): 'pending' | 'success' | 'failure' | 'none' {
  if (checks.length === 0) return 'none';
  if (checks.some((check) => check.state === 'failure')) return 'failure';
  if (checks.some((check) => check.state === 'pending')) return 'pending';
  return 'success';
}

/** Nothing more will change on this commit without someone re-running a check. */
export const isFinalBuild = (build: Build | null | undefined): boolean =>
  !!build && (build.state === 'success' || build.state === 'failure');

export const sameBuild = (a: Build | null | undefined, b: Build | null | undefined): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * A corrected file for a build that rejected Inkstream's file: the profile learned again and the
 * article rendered with it differs from the file on the pull request's branch. `proposed` waits
 * for a person (or the project's `publishing.autoCorrect`); `applying` is queued; `applied` was
 * committed. The file's text is never recorded: it is rendered again from the article when applied.
 */
export type BuildCorrection = {
  state: 'proposed' | 'applying' | 'applied';
  /** The file the correction rewrites (the article's committed path). */
  path: string;
  reason: string;
  /** The head commit whose failing build it corrects. */
  headSha: string;
  /** The commit that applied it; null until then. */
  commitSha: string | null;
  at: string;
};
