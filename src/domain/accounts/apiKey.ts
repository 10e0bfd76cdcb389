import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API keys look like `ink_<43 base62 chars of 32 random bytes><6 base62 chars of CRC32>`, the
 * shape GitHub uses for its tokens: a leak scanner recognises the prefix and validates the
 * checksum offline, without asking us.
 */
export const API_KEY_PREFIX = 'ink_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function toBase62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

const checksumOf = (body: string): string =>
  toBase62(BigInt(crc32(API_KEY_PREFIX + body)), CHECKSUM_LENGTH);

export function generateApiKey(): string {
  const body = toBase62(BigInt(`0x${randomBytes(32).toString('hex')}`), BODY_LENGTH);
  return `${API_KEY_PREFIX}${body}${checksumOf(body)}`;
}

/** The prefix, the length and the alphabet of a key; cheap, unlike the checksum. */
export const hasApiKeyShape = (key: string): boolean => KEY_PATTERN.test(key);

/** Well-formed and checksum-valid; says nothing about whether the key exists. */
export function isWellFormedApiKey(key: string): boolean {
  if (!hasApiKeyShape(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LENGTH);
  return key.endsWith(checksumOf(body));
}

export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What may be shown of a key after creation: enough to recognise it, useless to an attacker. */
export const displayPrefix = (key: string): string => key.slice(0, API_KEY_PREFIX.length + 6);
