import { useState } from 'react';
import { useAction } from '../ui/useAction.ts';
import { api, unwrap } from '../api/v1Client.ts';
import type { components } from '../api/v1.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { NewSecret } from '../ui/NewSecret.tsx';
import { useResource } from '../ui/useResource.ts';
import { ContentProfile } from './ContentProfile.tsx';
import { GitHubForm } from './GitHubForm.tsx';
import { orNone } from './load.ts';
import { Time } from '../ui/Time.tsx';

type GitHub = components['schemas']['GitHubIntegration'];

/** The GitHub connection: what is connected, the inbound webhook to set up on GitHub, connect, disconnect. */
export function GitHubSection({ projectId, canWrite }: { projectId: string; canWrite: boolean }) {
  const connection = useResource(
    () =>
      orNone(
        unwrap(
          api.GET('/projects/{id}/integrations/github', { params: { path: { id: projectId } } }),
        ),
      ),
    projectId,
  );
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();
  const failure = action.error;
  const github = connection.data?.github ?? null;

  function saved(next: GitHub) {
    if (next.webhook.secret) setSecret(next.webhook.secret);
    void connection.reload();
  }
  async function disconnect() {
    if (
      !window.confirm(
        `Disconnect ${github?.repository}? Nothing more is published; open pull requests stay on GitHub and are no longer followed.`,
      )
    )
      return;
    await action.run(async () => {
      await unwrap(
        api.DELETE('/projects/{id}/integrations/github', { params: { path: { id: projectId } } }),
      );
      setSecret(null);
      await connection.reload();
    });
  }

  return (
    <section aria-labelledby="github-title" className="integration">
      <h2 id="github-title">GitHub</h2>
      <ErrorNote error={connection.error ?? failure} />
      {connection.loading && connection.data === undefined && <p>Loading…</p>}
      {connection.data !== undefined && !github && (
        <p>Not connected: articles cannot be published until a repository is connected.</p>
      )}
      {github && (
        <>
          <dl className="facts">
            <dt>Repository</dt>
            <dd>{github.repository}</dd>
            <dt>Base branch</dt>
            <dd>{github.baseBranch}</dd>
            <dt>Content directory</dt>
            <dd>
              <code>{github.contentDirectory || '(repository root)'}</code>
            </dd>
            <dt>Publishing</dt>
            <dd>
              {github.publishMode === 'pr'
                ? 'a pull request per article'
                : 'direct push to the base branch'}
            </dd>
            <dt>Credential</dt>
            <dd>
              {github.credentials.type === 'token'
                ? 'personal access token'
                : `GitHub App ${github.credentials.appId}, installation ${github.credentials.installationId}`}
            </dd>
            <dt>Connected</dt>
            <dd>
              <Time at={github.connectedAt} />
            </dd>
          </dl>
          <ContentProfile
            projectId={projectId}
            github={github}
            canWrite={canWrite}
            onChanged={() => void connection.reload()}
          />
          <h3>Webhook on GitHub</h3>
          <p>
            On GitHub: repository → Settings → Webhooks → Add webhook, content type{' '}
            <code>application/json</code>, “Let me select individual events”: pull requests, issue
            comments, pull request review comments, and for the site's build check runs, check
            suites, statuses and deployment statuses. Without the build events Inkstream reads the
            build on a timer instead.
          </p>
          <table>
            <caption>Events GitHub has sent</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Last received</th>
              </tr>
            </thead>
            <tbody>
              {github.webhook.received.map((event) => (
                <tr key={event.name}>
                  <td>
                    <code>{event.name}</code>
                  </td>
                  <td>
                    {event.lastReceivedAt ? (
                      <Time at={event.lastReceivedAt} />
                    ) : (
                      'not yet: tick it on GitHub if it is missing'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="facts">
            <dt>Payload URL</dt>
            <dd>
              <code data-testid="github-webhook-url">{github.webhook.url}</code>
            </dd>
            <dt>Secret issued</dt>
            <dd>
              <Time at={github.webhook.secretIssuedAt} />
            </dd>
          </dl>
        </>
      )}
      {secret && (
        <NewSecret
          label="GitHub webhook secret"
          value={secret}
          hint="Paste it as the webhook's secret on GitHub."
          onDone={() => setSecret(null)}
        />
      )}
      {connection.data !== undefined && !github && (
        <GitHubForm
          key="new"
          projectId={projectId}
          current={null}
          disabled={!canWrite}
          onSaved={saved}
        />
      )}
      {github && (
        <details>
          <summary>Change the connection</summary>
          <GitHubForm
            key={github.connectedAt}
            projectId={projectId}
            current={github}
            disabled={!canWrite}
            onSaved={saved}
          />
        </details>
      )}
      {github && (
        <button type="button" disabled={!canWrite} onClick={() => void disconnect()}>
          Disconnect GitHub
        </button>
      )}
    </section>
  );
}
