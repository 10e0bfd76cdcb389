import { useState } from 'react';
import { useAction } from '../ui/useAction.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useResource } from '../ui/useResource.ts';
import { orNone } from './load.ts';
import { PlanLimit } from './PlanLimit.tsx';
import { SearchForm } from './SearchForm.tsx';
import { Time } from '../ui/Time.tsx';
import { useRefreshWhile } from './useRefreshWhile.ts';

const articlesCount = (count: number) => `${count} ${count === 1 ? 'article' : 'articles'}`;

/** Search analytics: the connected property, its state, the last sync and its result; connect, sync now, disconnect. */
export function SearchSection({ projectId, canWrite }: { projectId: string; canWrite: boolean }) {
  const path = { params: { path: { id: projectId } } };
  const connection = useResource(
    () => orNone(unwrap(api.GET('/projects/{id}/integrations/search-analytics', path))),
    projectId,
  );
  const action = useAction();
  const failure = action.error;
  const search = connection.data?.searchAnalytics ?? null;
  const sync = search?.lastSync ?? null;
  useRefreshWhile(sync?.status === 'running', connection.reload);

  const act = (run: () => Promise<void>) => action.run(run);
  const syncNow = () =>
    act(async () => {
      await unwrap(api.POST('/projects/{id}/integrations/search-analytics/sync', path));
      await connection.reload();
    });
  const disconnect = () =>
    act(async () => {
      if (
        !window.confirm(
          'Disconnect search analytics? Syncs stop and articles no longer show search figures.',
        )
      )
        return;
      await unwrap(api.DELETE('/projects/{id}/integrations/search-analytics', path));
      await connection.reload();
    });

  return (
    <section aria-labelledby="search-title" className="integration">
      <h2 id="search-title">Search analytics</h2>
      <ErrorNote error={connection.error} />
      {failure &&
        (failure.error.status === 402 ? (
          <PlanLimit failure={failure} />
        ) : (
          <ErrorNote error={failure} />
        ))}
      {connection.data !== undefined && !search && (
        <p>Not connected: articles show no search figures.</p>
      )}
      {search && (
        <dl className="facts">
          <dt>Property</dt>
          <dd>{search.property}</dd>
          <dt>Article URLs</dt>
          <dd>
            <code>{search.exampleUrl}</code>
          </dd>
          <dt>Credential</dt>
          <dd>
            {search.credentials.type === 'oauth'
              ? 'OAuth refresh token'
              : `service account ${search.credentials.clientEmail}`}
          </dd>
          <dt>Status</dt>
          <dd className={search.status === 'ok' ? 'ok' : 'error'}>
            {search.status === 'ok' ? 'working' : `broken: ${search.reason ?? ''}`}
          </dd>
          <dt>Last sync</dt>
          <dd data-testid="last-sync">
            {sync ? (
              <>
                {sync.status}, <Time at={sync.finishedAt ?? sync.requestedAt} />
                {sync.articles === null
                  ? ''
                  : `: ${articlesCount(sync.articles)}, ${sync.withTraffic ?? 0} with traffic`}
                {sync.reason ? ` (${sync.reason})` : ''}
              </>
            ) : (
              'not yet'
            )}
          </dd>
          <dt>Next sync</dt>
          <dd>
            <Time at={search.nextSyncAt} empty="none while broken" />
          </dd>
        </dl>
      )}
      {search && (
        <div className="actions">
          <button type="button" disabled={!canWrite} onClick={() => void syncNow()}>
            Sync now
          </button>
          <button type="button" disabled={!canWrite} onClick={() => void disconnect()}>
            Disconnect search analytics
          </button>
        </div>
      )}
      {connection.data !== undefined && !search && (
        <SearchForm
          projectId={projectId}
          current={null}
          disabled={!canWrite}
          onSaved={() => void connection.reload()}
        />
      )}
      {search && (
        <details>
          <summary>Change the connection</summary>
          <SearchForm
            projectId={projectId}
            current={search}
            disabled={!canWrite}
            onSaved={() => void connection.reload()}
          />
        </details>
      )}
    </section>
  );
}
