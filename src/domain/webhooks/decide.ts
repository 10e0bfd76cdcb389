import { AppError } from '../../core/errors.ts';
import type { StreamType } from '../../eventstore/handleCommand.ts';
import {
  evolveEndpoint,
  initialEndpoint,
  WEBHOOK_CATEGORY,
  type ActiveEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointEvent,
} from './endpoint.ts';
import { normalizeEventFilter, type WebhookEventType } from './eventTypes.ts';

export type WebhookEndpointCommand =
  | {
      type: 'RegisterEndpoint';
      endpointId: string;
      accountId: string;
      url: string;
      events: WebhookEventType[] | null;
      description?: string | null;
      sealedSecret: string;
      at: string;
    }
  | {
      type: 'UpdateEndpoint';
      events?: WebhookEventType[] | null;
      description?: string | null;
      enabled?: boolean;
      at: string;
    }
  /** The dispatcher's decision: a 410 Gone, or failing continuously for too long. */
  | { type: 'DisableEndpoint'; reason: 'gone' | 'failing'; detail: string; at: string }
  | { type: 'DeleteEndpoint'; at: string };

export const USER_DISABLED_DETAIL = 'Disabled through the API.';

export function decideEndpoint(
  command: WebhookEndpointCommand,
  state: WebhookEndpoint,
): WebhookEndpointEvent[] {
  switch (command.type) {
    case 'RegisterEndpoint': {
      if (state.status !== 'none') return []; // a retried registration is a no-op
      const { type: _type, events, description, ...data } = command;
      return [
        {
          type: 'WebhookEndpointRegistered',
          data: {
            ...data,
            events: normalizeEventFilter(events),
            ...(description ? { description } : {}),
          },
        },
      ];
    }
    case 'UpdateEndpoint':
      return update(command, requireEndpoint(state));
    case 'DisableEndpoint': {
      // The endpoint may have been disabled or deleted meanwhile: the first decision stands.
      if (state.status !== 'enabled') return [];
      return [
        {
          type: 'WebhookEndpointDisabled',
          data: {
            endpointId: state.id,
            reason: command.reason,
            detail: command.detail,
            at: command.at,
          },
        },
      ];
    }
    case 'DeleteEndpoint': {
      const endpoint = requireEndpoint(state);
      return [
        { type: 'WebhookEndpointDeleted', data: { endpointId: endpoint.id, at: command.at } },
      ];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

function update(
  command: Extract<WebhookEndpointCommand, { type: 'UpdateEndpoint' }>,
  endpoint: ActiveEndpoint,
): WebhookEndpointEvent[] {
  const events: WebhookEndpointEvent[] = [];
  const { at } = command;
  const endpointId = endpoint.id;
  if (command.events !== undefined) {
    const filter = normalizeEventFilter(command.events);
    if (JSON.stringify(filter) !== JSON.stringify(endpoint.events))
      events.push({ type: 'WebhookEndpointUpdated', data: { endpointId, events: filter, at } });
  }
  if (command.description !== undefined && command.description !== endpoint.description) {
    events.push({
      type: 'WebhookEndpointDescribed',
      data: { endpointId, description: command.description, at },
    });
  }
  if (command.enabled === true && endpoint.status === 'disabled')
    events.push({ type: 'WebhookEndpointEnabled', data: { endpointId, at } });
  if (command.enabled === false && endpoint.status === 'enabled') {
    events.push({
      type: 'WebhookEndpointDisabled',
      data: { endpointId, reason: 'user', detail: USER_DISABLED_DETAIL, at },
    });
  }
  return events;
}

export function requireEndpoint(state: WebhookEndpoint): ActiveEndpoint {
  if (state.status === 'none' || state.status === 'deleted')
    throw new AppError('not_found', 'No such webhook endpoint.');
  return state;
}

export const webhookStream: StreamType<
  WebhookEndpoint,
  WebhookEndpointEvent,
  WebhookEndpointCommand
> = {
  category: WEBHOOK_CATEGORY,
  initial: initialEndpoint,
  evolve: evolveEndpoint,
  decide: decideEndpoint,
};
