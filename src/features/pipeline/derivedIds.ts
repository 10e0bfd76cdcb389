import { createHash } from 'node:crypto';
import { timeOfId, type IdPrefix } from '../../core/ids.ts';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

const encodeTime = (ms: number): string => {
  let out = '';
  for (let i = 0, rest = Math.max(0, Math.floor(ms)); i < 10; i++, rest = Math.floor(rest / 32))
    out = ALPHABET[rest % 32] + out;
  return out;
};

/**
 * An id shaped like the generated ones (prefix, 10 time characters, 16 more) whose tail is a
 * hash of `key`: whatever derives it again (a replay, a restarted scheduler) gets the same id,
 * and the command that creates it decides nothing the second time.
 */
export function derivedId(prefix: IdPrefix, timeMs: number, key: string): string {
  const digest = createHash('sha256').update(key).digest();
  let tail = '';
  for (let i = 0; i < 16; i++) tail += ALPHABET[digest[i] % 32];
  return `${prefix}_${encodeTime(timeMs)}${tail}`;
}

/** The time part of a generated id, so ids derived from it sort with it. */
export { timeOfId };

/** The index-th topic a research run suggests. */
export const researchTopicId = (runId: string, index: number): string =>
  derivedId('tpc', timeOfId(runId), `${runId}\u0000${index}`);
