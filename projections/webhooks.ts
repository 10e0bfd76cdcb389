import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import {
  WEBHOOK_ENDPOINT_EVENTS,
  type DisabledReason,
  type WebhookEndpointEvent,
} from '../src/domain/webhooks/endpoint.ts';
import type { WebhookEventType } from '../src/domain/webhooks/eventTypes.ts';

/**
 * A webhook endpoint as GET /webhooks shows it, plus the sealed secret the dispatcher signs with
 * (never presented). A deleted endpoint leaves a tombstone.
 */
export type WebhookDoc = {
  id: string;
  accountId: string;
  url: string;
  /** null: every event type, including types added later. */
  events: WebhookEventType[] | null;
  description: string | null;
  enabled: boolean;
  disabled: { reason: DisabledReason; detail: string; at: string } | null;
  /** When deliveries (re)started: registration or the last re-enable; "failing for 5 days" counts from here at the earliest. */
  enabledAt: string;
  sealedSecret: string;
  createdAt: string;
  updatedAt: string;
};

export const webhooks = defineProjection<WebhookDoc, WebhookEndpointEvent>({
  name: 'webhooks',
  collection: 'webhooks',
  // The endpoint list (an account's, newest first) and the dispatcher's poll of enabled endpoints.
  indexes: [{ accountId: 1, createdAt: -1 }, 'enabled'],
  categories: ['webhook'],
  events: WEBHOOK_ENDPOINT_EVENTS,
  documentId: (event) => String(event.data.endpointId),
  evolve(doc, event) {
    if (event.type === 'WebhookEndpointRegistered') {
      const {
        endpointId,
        accountId,
        url,
        events,
        description = null,
        sealedSecret,
        at,
      } = event.data;
      return {
        id: endpointId,
        accountId,
        url,
        events,
        description,
        enabled: true,
        disabled: null,
        enabledAt: at,
        sealedSecret,
        createdAt: at,
        updatedAt: at,
      };
    }
    if (!doc) return doc;
    const updatedAt = event.data.at;
    switch (event.type) {
      case 'WebhookEndpointUpdated':
        return { ...doc, events: event.data.events, updatedAt };
      case 'WebhookEndpointDescribed':
        return { ...doc, description: event.data.description, updatedAt };
      case 'WebhookEndpointDisabled': {
        const { reason, detail, at } = event.data;
        return { ...doc, enabled: false, disabled: { reason, detail, at }, updatedAt };
      }
      case 'WebhookEndpointEnabled':
        return { ...doc, enabled: true, disabled: null, enabledAt: event.data.at, updatedAt };
      case 'WebhookEndpointDeleted':
        return null;
      default:
        return doc;
    }
  },
});
