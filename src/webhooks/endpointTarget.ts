import type { WebhookDoc } from '../../projections/webhooks.ts';
import type { Services } from '../services.ts';

/** What the dispatcher needs to send to an endpoint, or why it must not. */
export type EndpointTarget =
  | { usable: true; id: string; accountId: string; url: string; secret: string; enabledAtMs: number }
  | { usable: false; reason: string };

export const DELETED_REASON = 'The endpoint was deleted.';

/**
 * Reads the endpoint from its read model (waiting for the projections when it is not there yet:
 * the outbox may be ahead of them) and opens its secret, cached per sealed value.
 */
export function createTargetResolver(services: Pick<Services, 'readStore' | 'readModels' | 'secrets'>) {
  const opened = new Map<string, string>();
  /** Disabled here before the read model shows it: endpointId → when. */
  const disabledLocally = new Map<string, { reason: string; atMs: number }>();

  return {
    markDisabled(endpointId: string, reason: string, atMs: number) { disabledLocally.set(endpointId, { reason, atMs }); },
    async resolve(endpointId: string): Promise<EndpointTarget> {
      let doc = await services.readStore.get<WebhookDoc>('webhooks', endpointId);
      if (!doc) {
        await services.readModels.catchUp(2000);
        doc = await services.readStore.get<WebhookDoc>('webhooks', endpointId);
      }
      if (!doc) return { usable: false, reason: DELETED_REASON };
      if (!doc.enabled) return { usable: false, reason: `The endpoint was disabled: ${doc.disabled?.detail ?? 'no reason recorded'}` };
      const enabledAtMs = Date.parse(doc.enabledAt);
      const local = disabledLocally.get(endpointId);
      if (local && local.atMs >= enabledAtMs) return { usable: false, reason: local.reason };
      let secret = opened.get(doc.sealedSecret);
      if (secret === undefined) {
        secret = services.secrets.open(doc.sealedSecret);
        opened.set(doc.sealedSecret, secret);
      }
      return { usable: true, id: doc.id, accountId: doc.accountId, url: doc.url, secret, enabledAtMs };
    },
  };
}

export type TargetResolver = ReturnType<typeof createTargetResolver>;
