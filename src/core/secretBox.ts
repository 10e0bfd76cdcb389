import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  ensurePrivateDir,
  PRIVATE_FILE_MODE,
  tightenFile,
  type OnTightened,
} from './privateFiles.ts';

/**
 * Secrets (webhook secrets, GitHub tokens, search credentials) are stored sealed with
 * AES-256-GCM, never in an event in plaintext: the log is append-only and forever.
 *
 * Sealed text: `v2.<keyId>.<iv>.<tag>.<ciphertext>` (each part base64url). The key id names the
 * key of the keyring that sealed it, so keys can be rotated without rewriting the log; the
 * additional data binds the value to its record, so a value copied into another record does not
 * open. `v1.<iv>.<tag>.<ciphertext>` (no key id, no binding) was written before and still opens.
 */
export type SecretKind =
  | 'webhook-endpoint-secret'
  | 'github-credentials'
  | 'github-webhook-secret'
  | 'post-publish-hook-secret'
  | 'search-credentials';

/** The record a sealed value belongs to: it opens only when asked for by that same record. */
export type SecretBinding = { kind: SecretKind; accountId: string; recordId: string };

export type SecretBox = {
  seal(plaintext: string, binding: SecretBinding): string;
  open(sealed: string, binding: SecretBinding): string;
  /** The ids of the keyring's keys (never the keys). */
  keyIds: { current: string; retired: readonly string[] };
};

/** Which format and key a sealed value names, read from its text alone (v1 names no key). */
export function describeSealed(sealed: string): {
  version: 'v1' | 'v2' | 'unknown';
  keyId: string | null;
} {
  const parts = sealed.split('.');
  if (parts[0] === 'v1' && parts.length === 4) return { version: 'v1', keyId: null };
  if (parts[0] === 'v2' && parts.length === 5) return { version: 'v2', keyId: parts[1] };
  return { version: 'unknown', keyId: null };
}

/** The current key seals; retired keys only open what they sealed before a rotation. */
export type Keyring = {
  current: Buffer;
  retired: readonly Buffer[];
  /** Told when a value opens only under a retired key (or is unbound, v1): that record still needs saving again before its key can go. */
  onOutdated?: (
    binding: SecretBinding,
    sealedWith: { version: 'v1' | 'v2'; keyId: string },
  ) => void;
};

/** A stored value that cannot be opened: another record's, sealed under a key this deployment lacks, or altered. */
export class SealedSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedSecretError';
  }
}

const KEY_BYTES = 32;

/** A short, stable name for a key that reveals nothing about it (an HMAC under the key itself). */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key)
    .update('inkstream secret key id')
    .digest('base64url')
    .slice(0, 11);
}

function additionalData(keyId: string, binding: SecretBinding): Buffer {
  return Buffer.from(
    `v2.${keyId}.${JSON.stringify([binding.kind, binding.accountId, binding.recordId])}`,
    'utf8',
  );
}

function decrypt(
  key: Buffer,
  iv: string,
  tag: string,
  ciphertext: string,
  aad: Buffer | null,
): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(ciphertext, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

export function createSecretBox(keyring: Keyring): SecretBox {
  for (const key of [keyring.current, ...keyring.retired]) {
    if (key.length !== KEY_BYTES)
      throw new Error(
        'INKSTREAM_SECRET_KEY and INKSTREAM_SECRET_KEYS_RETIRED keys must be 32 bytes (base64 or hex encoded)',
      );
  }
  const currentId = keyIdOf(keyring.current);
  const byId = new Map([...keyring.retired, keyring.current].map((key) => [keyIdOf(key), key]));
  const all = [keyring.current, ...keyring.retired];

  function openV1(parts: string[], binding: SecretBinding): string {
    const [, iv, tag, ciphertext] = parts;
    for (const key of all) {
      let plaintext: string;
      try {
        plaintext = decrypt(key, iv, tag, ciphertext, null);
      } catch {
        continue; /* not this key: try the next */
      }
      keyring.onOutdated?.(binding, { version: 'v1', keyId: keyIdOf(key) });
      return plaintext;
    }
    throw new SealedSecretError(
      'A stored secret (v1) opens under none of the configured keys: add the key it was sealed with to INKSTREAM_SECRET_KEYS_RETIRED, or save the secret again.',
    );
  }

  function openV2(parts: string[], binding: SecretBinding): string {
    const [, keyId, iv, tag, ciphertext] = parts;
    const key = byId.get(keyId);
    if (!key) {
      throw new SealedSecretError(
        `A stored secret was sealed under key ${keyId}, which is neither INKSTREAM_SECRET_KEY nor one of INKSTREAM_SECRET_KEYS_RETIRED: add that key back, or save the secret again.`,
      );
    }
    let plaintext: string;
    try {
      plaintext = decrypt(key, iv, tag, ciphertext, additionalData(keyId, binding));
    } catch {
      throw new SealedSecretError(
        `A stored secret does not open as this record's ${binding.kind}: it was sealed for another record, or altered. Save the secret again.`,
      );
    }
    if (keyId !== currentId) keyring.onOutdated?.(binding, { version: 'v2', keyId });
    return plaintext;
  }

  return {
    keyIds: { current: currentId, retired: keyring.retired.map(keyIdOf) },
    seal(plaintext, binding) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyring.current, iv);
      cipher.setAAD(additionalData(currentId, binding));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        'v2',
        currentId,
        ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')),
      ].join('.');
    },
    open(sealed, binding) {
      const parts = sealed.split('.');
      if (parts[0] === 'v1' && parts.length === 4) return openV1(parts, binding);
      if (parts[0] === 'v2' && parts.length === 5) return openV2(parts, binding);
      throw new SealedSecretError('A stored secret is not in a sealed format this version knows.');
    },
  };
}

export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  return /^[0-9a-f]{64}$/i.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64');
}

/** INKSTREAM_SECRET_KEYS_RETIRED: keys separated by commas (blanks ignored). */
export function parseRetiredKeys(text: string | undefined): Buffer[] {
  return (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map(parseSecretKey);
}

/** Whether the text decodes to a key of the right length (checked when the configuration loads). */
export const isValidSecretKey = (text: string): boolean =>
  parseSecretKey(text).length === KEY_BYTES;

/** The key from the environment, or (embedded default) one generated once into DATA_DIR, 0600. */
export function loadOrCreateSecretKey(
  envValue: string | undefined,
  keyFile: string,
  onTightened: OnTightened = () => {},
): Buffer {
  if (envValue) return parseSecretKey(envValue);
  if (existsSync(keyFile)) {
    tightenFile(keyFile, onTightened);
    return parseSecretKey(readFileSync(keyFile, 'utf8'));
  }
  ensurePrivateDir(dirname(keyFile));
  const key = randomBytes(KEY_BYTES);
  try {
    writeFileSync(keyFile, key.toString('base64'), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    return key;
  } catch (error) {
    // Another process (the CLI, a second start) created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return parseSecretKey(readFileSync(keyFile, 'utf8'));
    throw error;
  }
}
