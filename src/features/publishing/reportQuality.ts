import type { QualityCheck } from '../../domain/articles/quality.ts';
import type { GitHubRepository } from '../../integrations/github/port.ts';
import type { Platform } from '../../platform.ts';
import { QUALITY_STATUS_CONTEXT, qualityStatus } from './qualityText.ts';

/**
 * The quality gate as a commit status on the pull request's head commit. Best effort: a token
 * without "Commit statuses: write" still publishes (the PR description carries the same list), and
 * the refusal is logged for the operator.
 */
export async function reportQuality(
  platform: Pick<Platform, 'logger'>,
  repo: Pick<GitHubRepository, 'createCommitStatus'>,
  sha: string,
  checks: readonly QualityCheck[],
  articleId: string,
): Promise<void> {
  if (checks.length === 0) return;
  try {
    await repo.createCommitStatus({
      sha,
      context: QUALITY_STATUS_CONTEXT,
      ...qualityStatus(checks),
    });
  } catch (error) {
    platform.logger.warn(
      { err: error, articleId, sha },
      "the quality gate's commit status was not posted",
    );
  }
}
