import type { RequestFailed } from '../api/appClient.ts';
import type { components } from '../api/v1.ts';
import { pathTo } from '../navigation.ts';
import { Link } from '../ui/Link.tsx';
import { httpUrl } from '../ui/httpUrl.ts';
import { Time } from '../ui/Time.tsx';
import { BUILD_LABEL } from '../article/SiteBuildPanel.tsx';

export type ArticleSummary = components['schemas']['ArticleSummary'];

/** Only a web address is made a link (a PR URL comes from outside; a `javascript:` one must not run). */

/**
 * An article on the pipeline board: its title (text only: it is the model's), when it last moved,
 * a failed one's reason with Retry, and a link to the article page. `onRetry` is absent for a viewer.
 */
export function ArticleCard({
  article,
  projectId,
  error,
  onRetry,
}: {
  article: ArticleSummary;
  projectId: string;
  error: RequestFailed | null;
  onRetry?: (article: ArticleSummary) => void;
}) {
  const prUrl = httpUrl(article.prUrl);
  return (
    <article className="card" aria-label={article.title}>
      <h3>
        <Link
          to={pathTo('/projects/:projectId/articles/:articleId', {
            projectId,
            articleId: article.id,
          })}
        >
          {article.title}
        </Link>
      </h3>
      <p className="card-meta">
        Since <Time at={article.updatedAt} />
        {article.version > 0 ? ` · version ${article.version}` : ''}
      </p>
      {article.waitingFor && (
        <p className="card-meta">
          Waiting for the {article.waitingFor.scope}'s monthly budget ({article.waitingFor.month}).
        </p>
      )}
      {prUrl && (
        <p className="card-meta">
          <a href={prUrl} rel="noreferrer noopener" target="_blank">
            Pull request{article.prNumber ? ` #${article.prNumber}` : ''}
          </a>
        </p>
      )}
      {article.build && (
        <p className={article.build.state === 'failure' ? 'card-failure' : 'card-meta'}>
          Site build: {BUILD_LABEL[article.build.state]}
          {article.build.state === 'failure' &&
            article.build.checks
              .filter((check) => check.state === 'failure')
              .slice(0, 1)
              .map((check) => ` (${check.name})`)}
        </p>
      )}
      {article.status === 'failed' && article.failure && (
        <p className="card-failure">
          <strong>Failed while {article.failure.step}:</strong> {article.failure.reason}
        </p>
      )}
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
      {onRetry && article.status === 'failed' && (
        <div className="card-actions">
          <button type="button" onClick={() => onRetry(article)}>
            Retry
          </button>
        </div>
      )}
    </article>
  );
}
