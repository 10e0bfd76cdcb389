import { oneLine } from '../../../core/oneLine.ts';
import {
  buildStateOf,
  type Build,
  type BuildCheck,
  type BuildCheckState,
} from '../../../domain/articles/build.ts';
import { isGitHubError } from '../../../integrations/github/errors.ts';
import type { CheckAnnotationRead, GitHubRepository } from '../../../integrations/github/port.ts';
import { QUALITY_STATUS_CONTEXT } from '../qualityText.ts';

/**
 * Reads the site's own build of a commit from GitHub: check runs (with the annotations of failed
 * ones), else, for a credential that may not read check runs (a fine-grained token cannot be
 * granted Checks), the GitHub Actions jobs; the commit statuses other than Inkstream's own
 * `inkstream/quality`; and the newest deployment's preview URL. Everything GitHub answers here
 * was written by the repository's CI: names and messages are bounded and on one line, URLs are
 * kept only when they are https.
 */

export const NAME_MAX = 100;
export const DETAIL_MAX = 500;
const URL_MAX = 2_000;
const MAX_CHECKS = 50;
/** Annotations are read for at most this many failed check runs (one call each). */
const MAX_ANNOTATED_RUNS = 3;
const MAX_ANNOTATIONS = 5;
const MAX_DEPLOYMENTS = 3;

export type BuildReader = Pick<
  GitHubRepository,
  | 'listCheckRuns'
  | 'listCheckRunAnnotations'
  | 'getCombinedStatus'
  | 'listDeployments'
  | 'listDeploymentStatuses'
  | 'listActionsJobs'
>;

/** A URL kept only when it is a well-formed https URL without credentials. */
export function httpsUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > URL_MAX) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' || url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

export const boundedText = (value: unknown, max: number): string =>
  typeof value === 'string' ? oneLine(value, max) : '';

const FAILING = new Set([
  'failure',
  'timed_out',
  'cancelled',
  'action_required',
  'startup_failure',
]);

/** A check run's or Actions job's status and conclusion as a build check state. */
export function checkRunState(status: string, conclusion: string | null): BuildCheckState {
  if (status !== 'completed') return 'pending';
  if (conclusion === 'success') return 'success';
  if (conclusion && FAILING.has(conclusion)) return 'failure';
  return 'neutral';
}

export function statusState(state: string): BuildCheckState {
  if (state === 'success') return 'success';
  if (state === 'failure' || state === 'error') return 'failure';
  return 'pending';
}

/** A refusal that says the credential may not read this (or the host has no such API): read around it. */
const isUnreadable = (error: unknown): boolean =>
  isGitHubError(error) && (error.code === 'missing_permission' || error.code === 'not_found');

const samePath = (a: string, b: string) => a.replace(/^\.?\//, '') === b.replace(/^\.?\//, '');

function annotationText(annotation: CheckAnnotationRead): string {
  const what = [annotation.title, annotation.message].filter(Boolean).join(': ');
  return `${annotation.path} line ${annotation.startLine}: ${what}`;
}

export async function readBuild(
  repo: BuildReader,
  headSha: string,
  articlePath: string | null,
): Promise<Build> {
  const refused: string[] = [];
  const checks: BuildCheck[] = [];
  const rejections: string[] = [];
  let checksRead = false;

  try {
    const runs = (await repo.listCheckRuns(headSha)).slice(0, MAX_CHECKS);
    checksRead = true;
    let annotated = 0;
    for (const run of runs) {
      const state = checkRunState(run.status, run.conclusion);
      let detail: string | null = null;
      if (state === 'failure') {
        const annotations =
          annotated++ < MAX_ANNOTATED_RUNS
            ? (await repo.listCheckRunAnnotations(run.id)).slice(0, MAX_ANNOTATIONS)
            : [];
        const failing = annotations.filter((a) => a.level !== 'notice');
        for (const annotation of failing)
          if (articlePath && samePath(annotation.path, articlePath))
            rejections.push(`${boundedText(run.name, NAME_MAX)}: ${annotationText(annotation)}`);
        detail =
          boundedText(failing.map(annotationText).join('; '), DETAIL_MAX) ||
          boundedText(run.summary ?? run.title ?? '', DETAIL_MAX) ||
          null;
      }
      checks.push({
        name: boundedText(run.name, NAME_MAX),
        state,
        url: httpsUrl(run.detailsUrl) ?? httpsUrl(run.htmlUrl),
        detail,
      });
    }
  } catch (error) {
    if (!isUnreadable(error)) throw error;
    refused.push('check runs (Checks: read, which a fine-grained token cannot be granted)');
    try {
      for (const job of (await repo.listActionsJobs(headSha)).slice(0, MAX_CHECKS)) {
        const state = checkRunState(job.status, job.conclusion);
        checks.push({
          name: boundedText(
            job.workflowName ? `${job.workflowName} / ${job.name}` : job.name,
            NAME_MAX,
          ),
          state,
          url: httpsUrl(job.htmlUrl),
          detail: state === 'failure' ? 'the job failed (its log is on GitHub)' : null,
        });
      }
      checksRead = true;
    } catch (fallbackError) {
      if (!isUnreadable(fallbackError)) throw fallbackError;
      refused.push('GitHub Actions jobs (Actions: read)');
    }
  }

  let statusesRead = false;
  try {
    for (const status of await repo.getCombinedStatus(headSha)) {
      if (status.context === QUALITY_STATUS_CONTEXT) continue;
      const state = statusState(status.state);
      checks.push({
        name: boundedText(status.context, NAME_MAX),
        state,
        url: httpsUrl(status.targetUrl),
        detail:
          state === 'failure' ? boundedText(status.description ?? '', DETAIL_MAX) || null : null,
      });
    }
    statusesRead = true;
  } catch (error) {
    if (!isUnreadable(error)) throw error;
    refused.push('commit statuses (Commit statuses: read)');
  }

  let previewUrl: string | null = null;
  try {
    for (const deployment of (await repo.listDeployments(headSha)).slice(0, MAX_DEPLOYMENTS)) {
      const statuses = await repo.listDeploymentStatuses(deployment.id);
      const live = statuses.find((s) => s.state === 'success' && httpsUrl(s.environmentUrl));
      if (live) {
        previewUrl = httpsUrl(live.environmentUrl);
        break;
      }
    }
  } catch (error) {
    if (!isUnreadable(error)) throw error;
  }

  if (!checksRead && !statusesRead)
    return {
      state: 'unknown',
      checks: [],
      previewUrl,
      reason: `GitHub does not let Inkstream's credential read ${refused.join(', nor ')}: grant one of them (docs/github.md) to see the site's build.`,
      headSha,
    };
  const unique = dedupeByName(checks);
  return {
    state: buildStateOf(unique),
    checks: unique,
    previewUrl,
    reason: rejections.length
      ? boundedText(`${REJECTS_INKSTREAM_FILE} ${rejections.join('; ')}`, DETAIL_MAX)
      : null,
    headSha,
  };
}

/** One entry per name (a check run and a status may share one), the first kept. */
function dedupeByName(checks: BuildCheck[]): BuildCheck[] {
  const seen = new Set<string>();
  return checks.filter((check) => !seen.has(check.name) && seen.add(check.name));
}

/** How `build.reason` begins when a failing annotation points at the file Inkstream committed. */
export const REJECTS_INKSTREAM_FILE = "The site's build rejects Inkstream's file:";
