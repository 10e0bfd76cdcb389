import { webhooks } from '../../../projections/webhooks.ts';
import { projectionList } from '../../readstore/projection.ts';
import type { Feature } from '../feature.ts';
import { catalogueRoutes } from './catalogue/api.ts';
import { deliveryRoutes } from './delivery/api.ts';
import { webhookDispatcher } from './delivery/dispatcher.ts';
import { statsRoutes } from './delivery/statsApi.ts';
import { endpointRoutes } from './endpoints/api.ts';
import { eventRoutes } from './feed/api.ts';
import { webhookOutbox } from './feed/outbox.ts';
import { pruneWebhookHistory } from './retention.ts';
import { webhookSignal } from './signal.ts';

/**
 * Webhook endpoints, their delivery logs and the public event feed; in the background, the outbox
 * (public events and deliveries written with its checkpoint) and the delivery dispatcher.
 */
export const webhooksFeature: Feature = {
  name: 'webhooks',
  // The catalogue first: /webhooks/event-types must match before /webhooks/:id.
  routes: [
    ...catalogueRoutes,
    ...endpointRoutes,
    ...deliveryRoutes,
    ...statsRoutes,
    ...eventRoutes,
  ],
  projections: projectionList(webhooks),
  background(platform) {
    const signal = webhookSignal(platform);
    const outbox = webhookOutbox({
      eventStore: platform.eventStore,
      readStore: platform.readStore,
      signal,
      nowMs: () => platform.clock.nowMs(),
    });
    return { consumers: [outbox], workers: [webhookDispatcher()] };
  },
  prune: pruneWebhookHistory,
};
