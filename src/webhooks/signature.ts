import { createHmac } from 'node:crypto';
import { standardWebhooksKey } from './secret.ts';

/**
 * The two signatures every delivery carries (docs/webhooks.md has test vectors for both):
 * - `x-service-signature: sha256=<hex>`: HMAC-SHA256 of the raw body, keyed with the secret
 *   string exactly as shown on create (its UTF-8 bytes, `whsec_` included), as the API contract says;
 * - Standard Webhooks: `webhook-signature: v1,<base64>` of HMAC-SHA256 over `id.timestamp.body`,
 *   keyed with the base64-decoded part of the secret, as that spec says, so its libraries verify it.
 */
export function serviceSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex')}`;
}

export function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', standardWebhooksKey(secret)).update(`${id}.${timestampSeconds}.`, 'utf8').update(body, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

export function signedHeaders(input: { secret: string; id: string; timestampSeconds: number; body: string }): Record<string, string> {
  const { secret, id, timestampSeconds, body } = input;
  return {
    'content-type': 'application/json',
    'x-service-signature': serviceSignature(secret, body),
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': standardSignature(secret, id, timestampSeconds, body),
  };
}
