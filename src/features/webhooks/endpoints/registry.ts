import type { StoredEvent } from '../../../eventstore/port.ts';
import {
  evolveEndpoint,
  initialEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointEvent,
} from '../../../domain/webhooks/endpoint.ts';
import { wantsEvent } from '../../../domain/webhooks/eventTypes.ts';

/**
 * The outbox's own view of the endpoints, folded from the webhook streams in log order by the
 * same consumer that reads the pipeline events. An event is therefore fanned out to exactly the
 * endpoints that were registered and enabled at its position, whether or not the webhooks read
 * model has caught up. Replayed events are skipped by position.
 */
export type EndpointRegistry = {
  apply(event: StoredEvent): void;
  /** Enabled endpoints of the account that subscribe to the type. */
  matching(accountId: string, type: string): string[];
};

export function createEndpointRegistry(): EndpointRegistry {
  const endpoints = new Map<string, { state: WebhookEndpoint; position: bigint }>();
  const byAccount = new Map<string, Set<string>>();

  return {
    apply(event) {
      const endpointId = String(event.data.endpointId);
      const current = endpoints.get(endpointId);
      if (current && current.position >= event.position) return;
      const state = evolveEndpoint(
        current?.state ?? initialEndpoint(),
        event as unknown as WebhookEndpointEvent,
      );
      endpoints.set(endpointId, { state, position: event.position });
      if (state.status === 'none') return;
      const ids = byAccount.get(state.accountId) ?? new Set<string>();
      if (state.status === 'deleted') ids.delete(endpointId);
      else ids.add(endpointId);
      byAccount.set(state.accountId, ids);
    },
    matching(accountId, type) {
      const matches: string[] = [];
      for (const id of byAccount.get(accountId) ?? []) {
        const state = endpoints.get(id)?.state;
        if (state?.status === 'enabled' && wantsEvent(state.events, type)) matches.push(id);
      }
      return matches;
    },
  };
}
