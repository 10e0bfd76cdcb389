import type { PageProps } from '../pageTypes.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { pathTo } from '../navigation.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { Link } from '../ui/Link.tsx';
import { useAction } from '../ui/useAction.ts';
import { useResource } from '../ui/useResource.ts';
import { downloadHistory } from './download.ts';
import { loadHistory } from './history.ts';
import { HistoryTable } from './HistoryTable.tsx';

/** The audit view (every role): an article's whole history with actor, time and event, and the same as a JSON Lines file. */
export function AuditPage({ params }: PageProps) {
  const { articleId, projectId } = params;
  const history = useResource(() => loadHistory(articleId), articleId);
  const article = useResource(
    async () =>
      (await unwrap(api.GET('/articles/{id}', { params: { path: { id: articleId } } }))).article,
    articleId,
  );
  const download = useAction();

  return (
    <main className="wide">
      <p>
        <Link to={pathTo('/projects/:projectId/articles/:articleId', { projectId, articleId })}>
          ← Back to the article
        </Link>
      </p>
      <h1>History of {article.data ? `“${article.data.title}”` : 'the article'}</h1>
      <p>
        Every step of the article, from its log: who did it (an API key, a member, GitHub or
        Inkstream itself), when, and what changed.
      </p>
      <button
        type="button"
        onClick={() => void download.run(() => downloadHistory(articleId))}
        disabled={download.busy}
      >
        Download JSON Lines
      </button>
      <ErrorNote error={download.error ?? history.error} />
      {history.loading && !history.data && <p aria-busy="true">Loading the history…</p>}
      {history.data && (
        <HistoryTable
          entries={history.data}
          caption={`${history.data.length} events, oldest first`}
        />
      )}
    </main>
  );
}
