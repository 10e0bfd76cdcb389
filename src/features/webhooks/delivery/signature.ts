import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { standardWebhooksKey } from '../endpoints/secret.ts';

/**
 * The two signatures every delivery carries (docs/webhooks.md has test vectors for both):
 * - `x-service-signature: sha256=<hex>`: HMAC-SHA256 of the raw body, keyed with the secret
 *   string exactly as shown on create (its UTF-8 bytes, `whsec_` included), as the API contract says;
 * - Standard Webhooks: `webhook-signature: v1,<base64>` of HMAC-SHA256 over `id.timestamp.body`,
 *   keyed with the base64-decoded part of the secret, as that spec says, so its libraries verify it.
 */
export type Signer = (input: {
  id: string;
  timestampSeconds: number;
  body: string;
}) => Record<string, string>;

/** A signer for one secret; its keys are prepared once, which matters at thousands of deliveries a second. */
export function createSigner(secret: string): Signer {
  const serviceKey: KeyObject = createSecretKey(Buffer.from(secret, 'utf8'));
  const standardKey: KeyObject = createSecretKey(standardWebhooksKey(secret));
  return ({ id, timestampSeconds, body }) => ({
    'content-type': 'application/json',
    'x-service-signature': `sha256=${createHmac('sha256', serviceKey).update(body, 'utf8').digest('hex')}`,
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${createHmac('sha256', standardKey).update(`${id}.${timestampSeconds}.`, 'utf8').update(body, 'utf8').digest('base64')}`,
  });
}

export const signedHeaders = (input: {
  secret: string;
  id: string;
  timestampSeconds: number;
  body: string;
}): Record<string, string> => createSigner(input.secret)(input);

export const standardSignature = (
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string => signedHeaders({ secret, id, timestampSeconds, body })['webhook-signature'];
