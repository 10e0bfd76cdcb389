import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';
import { httpUrl } from '../ui/httpUrl.ts';
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
}: {
  article: Article;
  canAct: boolean;
  onDone(): void;
}) {
  const action = useAction();
  const prUrl = httpUrl(article.prUrl);

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
          title={`${step.label} ${step.hint}`}
          disabled={!canAct || action.busy || !allows(step.operation, article.status)}
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
      {!canAct && (
        <p className="note">Your role is viewer: you can read everything but change nothing.</p>
      )}
      <ErrorNote error={action.error} />
    </section>
  );
}
