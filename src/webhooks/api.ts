import { deliveryRoutes } from './deliveriesApi.ts';
import { endpointRoutes } from './endpointsApi.ts';
import { eventRoutes } from './eventsApi.ts';

/** Webhook endpoints, their delivery logs, and the public event feed. */
export const webhookRoutes = [...endpointRoutes, ...deliveryRoutes, ...eventRoutes];
