import { randomBytes } from 'node:crypto';

/** 32 random bytes: above the 24 the Standard Webhooks spec asks for. */
export const WEBHOOK_SECRET_BYTES = 32;
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of the key bytes: the Standard Webhooks serialization. Shown once, on create. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(WEBHOOK_SECRET_BYTES).toString('base64');
}

/** The HMAC key of the Standard Webhooks signature: the bytes the base64 after `whsec_` encodes. */
export function standardWebhooksKey(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX))
    throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
}
