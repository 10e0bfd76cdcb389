import { useState } from 'react';
import type { PageProps } from '../pageTypes.ts';
import { pathTo } from '../navigation.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { Link } from '../ui/Link.tsx';
import { asRequestFailed, useResource } from '../ui/useResource.ts';
import type { RequestFailed } from '../api/appClient.ts';
import { downloadHistory } from './download.ts';
import { loadHistory } from './history.ts';
import { HistoryTable } from './HistoryTable.tsx';

/** The audit view (every role): an article's whole history with actor, time and event, and the same as a JSON Lines file. */
export function AuditPage({ params }: PageProps) {
  const { articleId, projectId } = params;
  const history = useResource(() => loadHistory(articleId), articleId);
  const [failure, setFailure] = useState<RequestFailed | null>(null);
  const [saving, setSaving] = useState(false);

  async function download() {
    setFailure(null);
    setSaving(true);
    try { await downloadHistory(articleId); } catch (error) { setFailure(asRequestFailed(error)); } finally { setSaving(false); }
  }

  return (
    <main className="wide">
      <p><Link to={pathTo('/projects/:projectId/articles/:articleId', { projectId, articleId })}>← Back to the article</Link></p>
      <h1>History of {articleId}</h1>
      <p>Every step of the article, from its log: who did it (an API key, a member, GitHub or Inkstream itself), when, and what changed.</p>
      <button type="button" onClick={() => void download()} disabled={saving}>Download JSON Lines</button>
      <ErrorNote error={failure ?? history.error} />
      {history.loading && !history.data && <p aria-busy="true">Loading the history…</p>}
      {history.data && <HistoryTable entries={history.data} caption={`${history.data.length} events, oldest first`} />}
    </main>
  );
}
