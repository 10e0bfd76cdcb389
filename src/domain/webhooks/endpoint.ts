import type { EventNames } from '../../eventstore/handleCommand.ts';
import type { WebhookEventType } from './eventTypes.ts';

/**
 * A webhook endpoint as an event stream. The signing secret is only ever in the log sealed
 * (AES-256-GCM with the instance key): the log is append-only and forever.
 */
export type DisabledReason = 'user' | 'gone' | 'failing';

export type WebhookEndpointEvent =
  /** `description` is absent in registrations logged before descriptions existed. */
  | {
      type: 'WebhookEndpointRegistered';
      data: {
        endpointId: string;
        accountId: string;
        url: string;
        events: WebhookEventType[] | null;
        description?: string | null;
        sealedSecret: string;
        at: string;
      };
    }
  | {
      type: 'WebhookEndpointUpdated';
      data: { endpointId: string; events: WebhookEventType[] | null; at: string };
    }
  | {
      type: 'WebhookEndpointDescribed';
      data: { endpointId: string; description: string | null; at: string };
    }
  | {
      type: 'WebhookEndpointDisabled';
      data: { endpointId: string; reason: DisabledReason; detail: string; at: string };
    }
  | { type: 'WebhookEndpointEnabled'; data: { endpointId: string; at: string } }
  | { type: 'WebhookEndpointDeleted'; data: { endpointId: string; at: string } };

/** Every type of WebhookEndpointEvent, as data: a read model skips (and logs) a type it does not know. */
export const WEBHOOK_ENDPOINT_EVENTS: EventNames<WebhookEndpointEvent> = {
  WebhookEndpointRegistered: true,
  WebhookEndpointUpdated: true,
  WebhookEndpointDescribed: true,
  WebhookEndpointDisabled: true,
  WebhookEndpointEnabled: true,
  WebhookEndpointDeleted: true,
};

export type WebhookEndpointEventType = WebhookEndpointEvent['type'];

export const WEBHOOK_ENDPOINT_EVENT_TYPES: readonly WebhookEndpointEventType[] = [
  'WebhookEndpointRegistered',
  'WebhookEndpointUpdated',
  'WebhookEndpointDescribed',
  'WebhookEndpointDisabled',
  'WebhookEndpointEnabled',
  'WebhookEndpointDeleted',
];

export type ActiveEndpoint = {
  status: 'enabled' | 'disabled' | 'deleted';
  id: string;
  accountId: string;
  url: string;
  events: WebhookEventType[] | null;
  /** The owner's note on what the endpoint is for (plain text, one line). */
  description: string | null;
  sealedSecret: string;
  disabled: { reason: DisabledReason; detail: string; at: string } | null;
};

export type WebhookEndpoint = { status: 'none' } | ActiveEndpoint;

export const WEBHOOK_CATEGORY = 'webhook';

export const initialEndpoint = (): WebhookEndpoint => ({ status: 'none' });

export function evolveEndpoint(
  state: WebhookEndpoint,
  event: WebhookEndpointEvent,
): WebhookEndpoint {
  if (event.type === 'WebhookEndpointRegistered') {
    const { endpointId, accountId, url, events, description = null, sealedSecret } = event.data;
    return {
      status: 'enabled',
      id: endpointId,
      accountId,
      url,
      events,
      description,
      sealedSecret,
      disabled: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'WebhookEndpointUpdated':
      return { ...state, events: event.data.events };
    case 'WebhookEndpointDescribed':
      return { ...state, description: event.data.description };
    case 'WebhookEndpointDisabled': {
      const { reason, detail, at } = event.data;
      return { ...state, status: 'disabled', disabled: { reason, detail, at } };
    }
    case 'WebhookEndpointEnabled':
      return { ...state, status: 'enabled', disabled: null };
    case 'WebhookEndpointDeleted':
      return { ...state, status: 'deleted' };
    default:
      return state;
  }
}
