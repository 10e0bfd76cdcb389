import type { WebhookDoc } from '../../../../projections/webhooks.ts';
import type { AuthContext } from '../../../http/auth.ts';
import { ownedDoc } from '../../../http/resources.ts';
import { idOf } from '../../../http/schemas.ts';
import type { Platform } from '../../../platform.ts';

export const WebhookId = idOf('whk');

/** The caller's endpoint, or 404: another account's endpoints do not exist for it. */
export const ownedWebhook = (input: {
  platform: Platform;
  auth: AuthContext;
  params: { id: string };
}) =>
  ownedDoc<WebhookDoc>(
    input.platform.readStore,
    'webhooks',
    input.params.id,
    input.auth,
    'webhook endpoint',
  );
