import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';
import { httpUrl } from '../ui/httpUrl.ts';
import { Link } from '../ui/Link.tsx';
import { allows, type Article } from './articleApi.ts';

const ACTIONS = [
  {
    operation: 'approve',
    label: 'Approve',
    hint: 'publishes a draft',
    path: '/articles/{id}/approve',
  },
  {
    operation: 'refresh',
    label: 'Refresh',
    hint: 'opens a refresh PR for a published article',
    path: '/articles/{id}/refresh',
  },
  {
    operation: 'retry',
    label: 'Retry',
    hint: 'retries a failed article from the step that failed',
    path: '/articles/{id}/retry',
  },
] as const;

/** Approve, refresh and retry, each enabled only in the states that allow it, and the pull request's link. */
export function ArticleActions({
  article,
  canAct,
  onDone,
  repositoryConnected,
}: {
  article: Article;
  canAct: boolean;
  onDone(): void;
  /** Whether the project has a GitHub repository to publish to; undefined while unknown. */
  repositoryConnected?: boolean;
}) {
  const action = useAction();
  const prUrl = httpUrl(article.prUrl);
  // Approving publishes to the project's repository: without one, say so and point at where to connect it.
  const noRepository = repositoryConnected === false && allows('approve', article.status);
  const integrations = `/projects/${article.projectId}/integrations`;

  const run = (path: (typeof ACTIONS)[number]['path']) =>
    action.run(async () => {
      await unwrap(api.POST(path, { params: { path: { id: article.id } } }));
      onDone();
    });

  return (
    <section aria-label="Actions" className="actions">
      {ACTIONS.map((step) => (
        <button
          key={step.operation}
          type="button"
          title={
            noRepository && step.operation === 'approve'
              ? `${step.label} is disabled: no GitHub repository is connected to publish to`
              : `${step.label} ${step.hint}`
          }
          aria-describedby={
            noRepository && step.operation === 'approve' ? 'no-repository' : undefined
          }
          disabled={
            !canAct ||
            action.busy ||
            !allows(step.operation, article.status) ||
            (noRepository && step.operation === 'approve')
          }
          onClick={() => void run(step.path)}
        >
          {step.label}
        </button>
      ))}
      {prUrl && (
        <a href={prUrl} rel="noopener noreferrer" target="_blank">
          Pull request{article.prNumber ? ` #${article.prNumber}` : ''}
        </a>
      )}
      {noRepository && (
        // On the buttons' line (short, not a block of its own): appearing once the project has
        // loaded, it does not move the article text below.
        <span className="no-repository" id="no-repository">
          No repository to publish to yet:{' '}
          <Link to={integrations}>connect one on the Integrations tab</Link>.
        </span>
      )}
      {!canAct && (
        <p className="note">Your role is viewer: you can read everything but change nothing.</p>
      )}
      <ErrorNote error={action.error} />
    </section>
  );
}
