import { deliveryRoutes } from './delivery/api.ts';
import { endpointRoutes } from './endpoints/api.ts';
import { eventRoutes } from './feed/api.ts';

/** Webhook endpoints, their delivery logs, and the public event feed. */
export const webhookRoutes = [...endpointRoutes, ...deliveryRoutes, ...eventRoutes];
