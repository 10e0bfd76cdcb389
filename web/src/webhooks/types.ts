import type { components } from '../api/v1.ts';

export type Endpoint = components['schemas']['WebhookEndpoint'];
export type Delivery = components['schemas']['WebhookDelivery'];
export type EventTypeInfo = components['schemas']['WebhookEventType'];
export type DeliveryStats = components['schemas']['WebhookDeliveryStats'];
export type EventType = NonNullable<Endpoint['events']>[number];
