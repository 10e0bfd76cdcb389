import { useState, type FormEvent } from 'react';
import type { Me } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { Link } from '../ui/Link.tsx';
import { NewSecret } from '../ui/NewSecret.tsx';
import { FieldError } from '../ui/FieldError.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import { useResource } from '../ui/useResource.ts';
import { DESCRIPTION_MAX } from './DescriptionForm.tsx';
import { EventCatalogue } from './EventCatalogue.tsx';
import { EventPicker } from './EventPicker.tsx';
import { endpointState } from './endpointState.ts';
import type { EventType } from './types.ts';
import { Time } from '../ui/Time.tsx';
import { TableBox } from '../ui/TableBox.tsx';

const FIELDS = ['url', 'description', 'events'] as const;

/** The webhooks portal: the account's endpoints, registering one (its secret shown once), the event catalogue. */
export function WebhooksPage({ me }: { me: Me }) {
  const canWrite = me.member.role !== 'viewer';
  const endpoints = useResource(
    () => unwrap(api.GET('/webhooks', { params: { query: { limit: 200 } } })),
    'webhooks',
  );
  const catalogue = useResource(() => unwrap(api.GET('/webhooks/event-types')), 'event-types');
  const [events, setEvents] = useState<EventType[] | null>(null);
  const action = useAction();
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const url = String(data.get('url')).trim();
    const description = String(data.get('description') ?? '').trim();
    void action.run(async () => {
      const body = {
        url,
        ...(events === null ? {} : { events }),
        ...(description ? { description } : {}),
      };
      const { webhook } = await unwrap(api.POST('/webhooks', { body }));
      setSecret({ label: `Signing secret of ${webhook.url}`, value: webhook.secret });
      form.reset();
      setEvents(null);
      await endpoints.reload();
    });
  }

  const urlError = messageFor(action.error, 'url');
  const descriptionError = messageFor(action.error, 'description');
  const general = formMessage(action.error, FIELDS);
  return (
    <main>
      <h1>Webhooks</h1>
      <p>
        Inkstream sends signed POST requests to these endpoints when something happens in your
        pipeline (docs/webhooks.md).
      </p>
      {!canWrite && <p>As a viewer you can read everything here but change nothing.</p>}
      {secret && (
        <NewSecret label={secret.label} value={secret.value} onDone={() => setSecret(null)} />
      )}
      <ErrorNote error={endpoints.error} />
      <TableBox label="Endpoints">
        <table>
          <caption>Endpoints</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {endpoints.data?.webhooks.map((endpoint) => (
              <tr key={endpoint.id}>
                <td>
                  <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                  {endpoint.description && (
                    <small className="endpoint-description">{endpoint.description}</small>
                  )}
                </td>
                <td>{endpoint.events === null ? 'every type' : endpoint.events.join(', ')}</td>
                <td>{endpointState(endpoint)}</td>
                <td>
                  <Time at={endpoint.createdAt} />
                </td>
              </tr>
            ))}
            {endpoints.data?.webhooks.length === 0 && (
              <tr>
                <td colSpan={4}>No endpoints yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      </TableBox>

      <h2>Add an endpoint</h2>
      <form onSubmit={create} aria-label="Add an endpoint">
        <label>
          Endpoint URL (https)
          <input
            name="url"
            type="url"
            required
            placeholder="https://example.com/hooks/inkstream"
            disabled={!canWrite}
            aria-invalid={urlError ? true : undefined}
            aria-describedby="url-error"
          />
          <FieldError id="url-error" message={urlError} />
        </label>
        <label>
          Description (optional)
          <input
            name="description"
            maxLength={DESCRIPTION_MAX}
            placeholder="what this endpoint is for"
            disabled={!canWrite}
            aria-invalid={descriptionError ? true : undefined}
            aria-describedby="description-error"
          />
          <FieldError id="description-error" message={descriptionError} />
        </label>
        <EventPicker
          catalogue={catalogue.data?.eventTypes ?? []}
          value={events}
          onChange={setEvents}
          disabled={!canWrite}
          error={messageFor(action.error, 'events')}
        />
        {general && (
          <p role="alert" className="error">
            {general}
          </p>
        )}
        <div>
          <button type="submit" disabled={!canWrite || action.busy}>
            Add endpoint
          </button>
        </div>
      </form>

      <ErrorNote error={catalogue.error} />
      {catalogue.data && <EventCatalogue eventTypes={catalogue.data.eventTypes} />}
    </main>
  );
}
