import { createHash, randomBytes } from 'node:crypto';

/** Crockford base32: time-sortable ids that read well in URLs and logs. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export type IdPrefix =
  | 'acc'
  | 'key'
  | 'prj'
  | 'tpc'
  | 'art'
  | 'whk'
  | 'dlv'
  | 'evt'
  | 'rev'
  | 'run'
  | 'crl'
  | 'req'
  | 'cor'
  | 'mbr'
  | 'ses';

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 32];
  return out;
}

/** The creation time (ms) of a generated or derived id; 0 when the id is not shaped like one. */
export function timeOfId(id: string): number {
  const match = /^[a-z]{3}_([0-9a-z]{10})/.exec(id);
  if (!match) return 0;
  let ms = 0;
  for (const char of match[1]) ms = ms * 32 + Math.max(0, ALPHABET.indexOf(char));
  return ms;
}

export interface IdGenerator {
  next(prefix: IdPrefix): string;
}

/** Random bytes drawn from a pool refilled 4 KB at a time: one call into the CSPRNG per 256 ids. */
const RANDOM_POOL_BYTES = 4096;
let randomPool = randomBytes(RANDOM_POOL_BYTES);
let randomOffset = 0;

function nextRandom(count: number): Buffer {
  if (randomOffset + count > RANDOM_POOL_BYTES) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomOffset = 0;
  }
  randomOffset += count;
  return randomPool.subarray(randomOffset - count, randomOffset);
}

/** `prj_` + 10 chars of milliseconds + 16 random chars; sortable by creation time. */
export function createIdGenerator(nowMs: () => number = Date.now): IdGenerator {
  return { next: (prefix) => `${prefix}_${encodeTime(nowMs())}${encodeRandom(nextRandom(16))}` };
}

/**
 * Event ids derived from what caused them, so a retried append carries the same ids and is
 * deduplicated by the store. Formatted as a UUID because EventStoreDB requires one.
 *
 * In a stream named by a time-sortable id (every entity's: `topic-tpc_…`), the id starts with that
 * id's 48 bits of milliseconds, as a UUIDv7 starts with its time (version 8: the rest is not
 * random but the SHA-256 of the parts). An entity's events then sit together in the log's index
 * of ids and a new entity's at its end, where hashed ids put every append on a page of its own:
 * that doubled the cost of an append on the embedded store (bench/eventIds.bench.ts). Other
 * streams (a ledger) get ids that are all hash, version 5 in form.
 */
export function deriveEventId(stream: string, commandId: string, index: number): string {
  const hex = createHash('sha256')
    .update(`${commandId}\u0000${stream}\u0000${index}`)
    .digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const ms = entityTimeOf(stream);
  if (ms === null)
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  const time = ms.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const ENTITY_STREAM = /^[a-z]+-[a-z]{3}_([0-9a-z]{10})[0-9a-z]{16}$/;

/** The milliseconds in the time-sortable id a stream is named by, or null. */
function entityTimeOf(stream: string): number | null {
  const match = ENTITY_STREAM.exec(stream);
  if (!match) return null;
  let ms = 0;
  for (const char of match[1]) {
    const digit = ALPHABET.indexOf(char);
    if (digit === -1) return null;
    ms = ms * 32 + digit;
  }
  return ms < 2 ** 48 ? ms : null;
}

export const ID_PATTERN = (prefix: IdPrefix): RegExp => new RegExp(`^${prefix}_[0-9a-z]{26}$`);

/**
 * A time-sortable id derived from what it names, so the same inputs always give the same id
 * (a public event id, a delivery id): prefix + 10 chars of milliseconds + 16 chars of a SHA-256.
 */
export function deriveId(prefix: IdPrefix, ms: number, ...parts: string[]): string {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  return `${prefix}_${encodeTime(ms)}${encodeRandom(digest.subarray(0, 16))}`;
}

export const isIdOf = (prefix: IdPrefix, value: string): boolean => ID_PATTERN(prefix).test(value);
