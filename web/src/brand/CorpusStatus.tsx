import { useEffect } from 'react';
import { api, unwrap } from '../api/v1Client.ts';
import { Time } from '../ui/Time.tsx';
import { useResource } from '../ui/useResource.ts';

const POLL_MS = 5_000;

/**
 * The corpus crawl of every page (GET /projects/:id, `corpus`): pages read, known, unchanged and
 * failed, an estimate while it runs, and the bounds it met. Polled while it runs; notes are text.
 */
export function CorpusStatus({ projectId }: { projectId: string }) {
  const project = useResource(
    () =>
      unwrap(api.GET('/projects/{id}', { params: { path: { id: projectId } } })).then(
        (body) => body.project,
      ),
    projectId,
  );
  const corpus = project.data?.corpus ?? null;
  const running = corpus?.status === 'running';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void project.reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [running, project.reload]);
  if (!corpus) return null;
  return (
    <div className="changes" role="region" aria-label="Every page of the site">
      <p role="status">
        {running ? 'Reading every page of the site: ' : 'Every page of the site: '}
        {corpus.pagesRead} read, {corpus.skippedUnchanged} unchanged, {corpus.failed} failed,{' '}
        {corpus.pagesKnown} known
        {running && corpus.estimatedCompletionAt ? (
          <>
            ; done about <Time at={corpus.estimatedCompletionAt} />
          </>
        ) : null}
        {!running && corpus.finishedAt ? (
          <>
            {' '}
            (finished <Time at={corpus.finishedAt} />)
          </>
        ) : null}
        .
      </p>
      {corpus.notes.length > 0 && (
        <ul>
          {corpus.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
