import { z } from 'zod';
import type { WebhookDoc } from '../../../../projections/webhooks.ts';
import type { DeliveryDoc } from '../delivery/delivery.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../domain/webhooks/eventTypes.ts';
import type { PublicEvent } from '../feed/publicEvents.ts';

export const EventType = z.enum(WEBHOOK_EVENT_TYPES);

export const WebhookBody = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z
      .array(EventType)
      .nullable()
      .describe('The subscribed event types; null means every type, including types added later.'),
    description: z
      .string()
      .nullable()
      .describe('What the endpoint is for: plain text set by the account, never markup.'),
    enabled: z.boolean(),
    disabled: z
      .object({
        reason: z
          .enum(['user', 'gone', 'failing'])
          .describe(
            'user: through the API; gone: the endpoint answered 410; failing: every attempt failed for 5 days',
          ),
        detail: z.string(),
        at: z.string(),
      })
      .nullable(),
    failingSince: z
      .string()
      .nullable()
      .describe('When the current run of failed attempts began; null while deliveries succeed.'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

export const CreatedWebhookBody = WebhookBody.extend({
  secret: z
    .string()
    .describe('whsec_…: shown only in this response. Store it to verify signatures.'),
}).meta({ id: 'CreatedWebhookEndpoint' });

export function presentWebhook(
  doc: WebhookDoc,
  failingSince: string | null = null,
): z.infer<typeof WebhookBody> {
  const { id, url, events, description = null, enabled, disabled, createdAt, updatedAt } = doc;
  const failing =
    enabled && failingSince !== null && Date.parse(failingSince) >= Date.parse(doc.enabledAt)
      ? failingSince
      : null;
  return {
    id,
    url,
    events,
    description,
    enabled,
    disabled,
    failingSince: failing,
    createdAt,
    updatedAt,
  };
}

export const DeliveryStatus = z.enum(['pending', 'retrying', 'succeeded', 'failed']);

export const DeliveryBody = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    eventId: z.string(),
    type: z.string(),
    status: DeliveryStatus,
    attempts: z.array(
      z.object({
        at: z.string(),
        statusCode: z.number().int().nullable(),
        latencyMs: z.number().int().nullable(),
        error: z.string().nullable(),
        responseBody: z.string().nullable().describe('The first 2 KB of the answer'),
      }),
    ),
    nextAttemptAt: z.string().nullable(),
    failureReason: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

export const DeliveryDetailBody = DeliveryBody.extend({
  payload: z.string().describe('The exact request body every attempt sends'),
}).meta({ id: 'WebhookDeliveryDetail' });

export function presentDelivery(doc: DeliveryDoc): z.infer<typeof DeliveryBody> {
  const {
    id,
    endpointId,
    eventId,
    eventType,
    status,
    attempts,
    nextAttemptAt,
    failureReason,
    createdAt,
    updatedAt,
  } = doc;
  return {
    id,
    endpointId,
    eventId,
    type: eventType,
    status,
    attempts,
    nextAttemptAt,
    failureReason,
    createdAt,
    updatedAt,
  };
}

export const PublicEventBody = z
  .object({
    id: z.string(),
    type: EventType,
    createdAt: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event' });

export const presentEvent = (body: string): PublicEvent => JSON.parse(body) as PublicEvent;
