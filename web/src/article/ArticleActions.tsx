import { useState } from 'react';
import type { RequestFailed } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { asRequestFailed } from '../ui/useResource.ts';
import { httpUrl } from '../ui/httpUrl.ts';
import { allows, type Article } from './articleApi.ts';

const ACTIONS = [
  { operation: 'approve', label: 'Approve', hint: 'publishes a draft', path: '/articles/{id}/approve' },
  { operation: 'refresh', label: 'Refresh', hint: 'opens a refresh PR for a published article', path: '/articles/{id}/refresh' },
  { operation: 'retry', label: 'Retry', hint: 'retries a failed article from the step that failed', path: '/articles/{id}/retry' },
] as const;

/** Approve, refresh and retry, each enabled only in the states that allow it, and the pull request's link. */
export function ArticleActions({ article, canAct, onDone }: { article: Article; canAct: boolean; onDone(): void }) {
  const [failure, setFailure] = useState<RequestFailed | null>(null);
  const [busy, setBusy] = useState(false);
  const prUrl = httpUrl(article.prUrl);

  async function run(path: (typeof ACTIONS)[number]['path']) {
    setFailure(null);
    setBusy(true);
    try {
      await unwrap(api.POST(path, { params: { path: { id: article.id } } }));
      onDone();
    } catch (error) {
      setFailure(asRequestFailed(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-label="Actions" className="actions">
      {ACTIONS.map((action) => (
        <button key={action.operation} type="button" title={`${action.label} ${action.hint}`}
          disabled={!canAct || busy || !allows(action.operation, article.status)} onClick={() => void run(action.path)}>
          {action.label}
        </button>
      ))}
      {prUrl && <a href={prUrl} rel="noopener noreferrer" target="_blank">Pull request{article.prNumber ? ` #${article.prNumber}` : ''}</a>}
      {!canAct && <p className="note">Your role is viewer: you can read everything but change nothing.</p>}
      <ErrorNote error={failure} />
    </section>
  );
}
