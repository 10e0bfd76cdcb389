import type { WebhookDoc } from '../../../../projections/webhooks.ts';
import type { Platform } from '../../../platform.ts';
import { createSigner, type Signer } from '../delivery/signature.ts';

/** What the dispatcher needs to send to an endpoint, or why it must not. */
export type EndpointTarget =
  | { usable: true; id: string; accountId: string; url: string; sign: Signer; enabledAtMs: number }
  | { usable: false; reason: string };

export const DELETED_REASON = 'The endpoint was deleted.';

/**
 * Reads the endpoint from its read model (waiting for the projections when it is not there yet:
 * the outbox may be ahead of them) and prepares its signer, cached per sealed secret.
 */
export function createTargetResolver(
  platform: Pick<Platform, 'readStore' | 'readModels' | 'secrets'>,
) {
  const signers = new Map<string, Signer>();
  /** Disabled here before the read model shows it: endpointId → when. */
  const disabledLocally = new Map<string, { reason: string; atMs: number }>();

  return {
    markDisabled(endpointId: string, reason: string, atMs: number) {
      disabledLocally.set(endpointId, { reason, atMs });
    },
    async resolve(endpointId: string): Promise<EndpointTarget> {
      let doc = await platform.readStore.get<WebhookDoc>('webhooks', endpointId);
      if (!doc) {
        await platform.readModels.catchUp(2000);
        doc = await platform.readStore.get<WebhookDoc>('webhooks', endpointId);
      }
      if (!doc) return { usable: false, reason: DELETED_REASON };
      if (!doc.enabled)
        return {
          usable: false,
          reason: `The endpoint was disabled: ${doc.disabled?.detail ?? 'no reason recorded'}`,
        };
      const enabledAtMs = Date.parse(doc.enabledAt);
      const local = disabledLocally.get(endpointId);
      if (local && local.atMs >= enabledAtMs) return { usable: false, reason: local.reason };
      let sign = signers.get(doc.sealedSecret);
      if (sign === undefined) {
        sign = createSigner(
          platform.secrets.open(doc.sealedSecret, {
            kind: 'webhook-endpoint-secret',
            accountId: doc.accountId,
            recordId: doc.id,
          }),
        );
        signers.set(doc.sealedSecret, sign);
      }
      return {
        usable: true,
        id: doc.id,
        accountId: doc.accountId,
        url: doc.url,
        sign,
        enabledAtMs,
      };
    },
  };
}

export type TargetResolver = ReturnType<typeof createTargetResolver>;
