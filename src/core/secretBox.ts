import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Secrets (webhook secrets, GitHub tokens, search credentials) are stored sealed with
 * AES-256-GCM, never in an event in plaintext: the log is append-only and forever.
 * Sealed text: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
export type SecretBox = { seal(plaintext: string): string; open(sealed: string): string };

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('INKSTREAM_SECRET_KEY must be 32 bytes (base64 or hex encoded)');
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  return /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
}

/** The key from the environment, or (embedded default) one generated once into DATA_DIR. */
export function loadOrCreateSecretKey(envValue: string | undefined, keyFile: string): Buffer {
  if (envValue) return parseSecretKey(envValue);
  if (existsSync(keyFile)) return parseSecretKey(readFileSync(keyFile, 'utf8'));
  mkdirSync(dirname(keyFile), { recursive: true });
  const key = randomBytes(32);
  try {
    writeFileSync(keyFile, key.toString('base64'), { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    // Another process (the CLI, a second start) created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return parseSecretKey(readFileSync(keyFile, 'utf8'));
    throw error;
  }
}
