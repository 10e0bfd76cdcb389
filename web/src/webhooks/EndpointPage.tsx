import { useEffect, useState } from 'react';
import type { Me } from '../api/appClient.ts';
import { api, unwrap } from '../api/v1Client.ts';
import { navigate } from '../navigation.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { Link } from '../ui/Link.tsx';
import { formMessage, messageFor } from '../ui/fieldMessage.ts';
import { useAction } from '../ui/useAction.ts';
import { useResource } from '../ui/useResource.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { DescriptionForm } from './DescriptionForm.tsx';
import { endpointState } from './endpointState.ts';
import { EventPicker } from './EventPicker.tsx';
import { StatsPanel } from './StatsPanel.tsx';
import type { EventType } from './types.ts';

/** One endpoint: its subscription, enable/disable, a test event, delete; its success rate and delivery log. */
export function EndpointPage({ me, endpointId }: { me: Me; endpointId: string }) {
  const canWrite = me.member.role !== 'viewer';
  const endpoint = useResource(
    () => unwrap(api.GET('/webhooks/{id}', { params: { path: { id: endpointId } } })),
    endpointId,
  );
  const catalogue = useResource(() => unwrap(api.GET('/webhooks/event-types')), 'event-types');
  const [events, setEvents] = useState<EventType[] | null>(null);
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const webhook = endpoint.data?.webhook;
  useEffect(() => {
    if (webhook) setEvents(webhook.events);
  }, [webhook]);

  function act(change: () => Promise<string | null>) {
    setNotice(null);
    return action.run(async () => setNotice(await change()));
  }
  const path = { params: { path: { id: endpointId } } };
  const saveEvents = () =>
    act(async () => {
      await unwrap(api.PATCH('/webhooks/{id}', { ...path, body: { events } }));
      await endpoint.reload();
      return 'Saved the subscribed events.';
    });
  const setEnabled = (enabled: boolean) =>
    act(async () => {
      await unwrap(api.PATCH('/webhooks/{id}', { ...path, body: { enabled } }));
      await endpoint.reload();
      return enabled
        ? 'Enabled: new events are delivered again.'
        : 'Disabled: nothing is sent until it is enabled again.';
    });
  const sendTest = () =>
    act(async () => {
      await unwrap(api.POST('/webhooks/{id}/test', path));
      setRefreshKey((key) => key + 1);
      return 'A test event is on its way; it appears in the log below.';
    });
  const remove = () =>
    act(async () => {
      if (
        !window.confirm(
          `Delete the endpoint ${webhook?.url}? It receives nothing more, and deliveries still waiting are dropped.`,
        )
      )
        return null;
      await unwrap(api.DELETE('/webhooks/{id}', path));
      navigate('/webhooks');
      return null;
    });

  if (endpoint.error)
    return (
      <main>
        <h1>Webhook endpoint</h1>
        <ErrorNote error={endpoint.error} />
        <Link to="/webhooks">All endpoints</Link>
      </main>
    );
  if (!webhook)
    return (
      <main>
        <h1>Webhook endpoint</h1>
        <p>Loading…</p>
      </main>
    );
  const eventsError = messageFor(action.error, 'events');
  const general = formMessage(action.error, ['events']);
  return (
    <main>
      <p>
        <Link to="/webhooks">All endpoints</Link>
      </p>
      <h1>Webhook endpoint</h1>
      <p className="endpoint-url">
        <code>{webhook.url}</code>
      </p>
      <DescriptionForm
        endpointId={endpointId}
        description={webhook.description}
        canWrite={canWrite}
        onSaved={endpoint.reload}
      />
      <p>
        State: <strong data-testid="endpoint-state">{endpointState(webhook)}</strong>
      </p>
      {!canWrite && <p>As a viewer you can read everything here but change nothing.</p>}
      {notice && <p role="status">{notice}</p>}
      {general && (
        <p role="alert" className="error">
          {general}
        </p>
      )}
      <div className="actions">
        <button
          type="button"
          disabled={!canWrite || !webhook.enabled}
          onClick={() => void sendTest()}
        >
          Send test event
        </button>
        {webhook.enabled ? (
          <button type="button" disabled={!canWrite} onClick={() => void setEnabled(false)}>
            Disable
          </button>
        ) : (
          <button type="button" disabled={!canWrite} onClick={() => void setEnabled(true)}>
            Enable
          </button>
        )}
        <button type="button" className="danger" disabled={!canWrite} onClick={() => void remove()}>
          Delete endpoint
        </button>
      </div>
      <form
        aria-label="Subscribed events"
        onSubmit={(event) => {
          event.preventDefault();
          void saveEvents();
        }}
      >
        <EventPicker
          catalogue={catalogue.data?.eventTypes ?? []}
          value={events}
          onChange={setEvents}
          disabled={!canWrite}
          error={eventsError}
        />
        <div>
          <button type="submit" disabled={!canWrite}>
            Save events
          </button>
        </div>
      </form>
      <StatsPanel endpointId={endpointId} refreshKey={refreshKey} />
      <DeliveryLog
        endpointId={endpointId}
        catalogue={catalogue.data?.eventTypes ?? []}
        canWrite={canWrite}
        enabled={webhook.enabled}
        refreshKey={refreshKey}
      />
    </main>
  );
}
