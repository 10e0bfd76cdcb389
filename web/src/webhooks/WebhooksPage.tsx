import { useState, type FormEvent } from 'react';
import type { Me, RequestFailed } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { Link } from '../ui/Link.tsx';
import { NewSecret } from '../ui/NewSecret.tsx';
import { asRequestFailed, useResource } from '../ui/useResource.ts';
import { EventCatalogue } from './EventCatalogue.tsx';
import { EventPicker } from './EventPicker.tsx';
import { endpointState } from './endpointState.ts';
import type { EventType } from './types.ts';
import { Time } from '../ui/Time.tsx';

/** The webhooks portal: the account's endpoints, registering one (its secret shown once), the event catalogue. */
export function WebhooksPage({ me }: { me: Me }) {
  const canWrite = me.member.role !== 'viewer';
  const endpoints = useResource(() => unwrap(api.GET('/webhooks', { params: { query: { limit: 200 } } })), 'webhooks');
  const catalogue = useResource(() => unwrap(api.GET('/webhooks/event-types')), 'event-types');
  const [events, setEvents] = useState<EventType[] | null>(null);
  const [failure, setFailure] = useState<RequestFailed | null>(null);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const url = String(new FormData(form).get('url')).trim();
    setFailure(null);
    try {
      const { webhook } = await unwrap(api.POST('/webhooks', { body: { url, ...(events === null ? {} : { events }) } }));
      setSecret({ label: `Signing secret of ${webhook.url}`, value: webhook.secret });
      form.reset();
      setEvents(null);
      await endpoints.reload();
    } catch (error) {
      setFailure(asRequestFailed(error));
    }
  }

  const urlError = failure?.fieldMessage('url');
  const eventsError = failure?.fieldMessage('events');
  return (
    <main>
      <h1>Webhooks</h1>
      <p>Inkstream sends signed POST requests to these endpoints when something happens in your pipeline (docs/webhooks.md).</p>
      {!canWrite && <p>As a viewer you can read everything here but change nothing.</p>}
      {secret && <NewSecret label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      <ErrorNote error={endpoints.error} />
      <table>
        <caption>Endpoints</caption>
        <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Created</th></tr></thead>
        <tbody>
          {endpoints.data?.webhooks.map((endpoint) => (
            <tr key={endpoint.id}>
              <td><Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link></td>
              <td>{endpoint.events === null ? 'every type' : endpoint.events.join(', ')}</td>
              <td>{endpointState(endpoint)}</td>
              <td><Time at={endpoint.createdAt} /></td>
            </tr>
          ))}
          {endpoints.data?.webhooks.length === 0 && <tr><td colSpan={4}>No endpoints yet.</td></tr>}
        </tbody>
      </table>

      <h2>Add an endpoint</h2>
      <form onSubmit={(event) => void create(event)} aria-label="Add an endpoint">
        <label>
          Endpoint URL (https)
          <input name="url" type="url" required placeholder="https://example.com/hooks/inkstream" disabled={!canWrite}
            aria-invalid={urlError ? true : undefined} aria-describedby={urlError ? 'url-error' : undefined} />
        </label>
        {urlError && <p id="url-error" className="error">{urlError}</p>}
        <EventPicker catalogue={catalogue.data?.eventTypes ?? []} value={events} onChange={setEvents} disabled={!canWrite} error={eventsError} />
        {failure && !urlError && !eventsError && <ErrorNote error={failure} />}
        <div><button type="submit" disabled={!canWrite}>Add endpoint</button></div>
      </form>

      <ErrorNote error={catalogue.error} />
      {catalogue.data && <EventCatalogue eventTypes={catalogue.data.eventTypes} />}
    </main>
  );
}
