import type { Clock } from '../core/clock.ts';
import type { CollectionSpec, ReadStore } from '../readstore/port.ts';

export const KEY_LAST_USED = 'api_key_last_used';
export const KEY_LAST_USED_SPEC: CollectionSpec = { name: KEY_LAST_USED, indexes: [] };
/** A key's last use is written at most this often per process: a request need not cost a write. */
const PRECISION_MS = 60 * 1000;

export type KeyLastUsedDoc = { id: string; atMs: number };

/** Remembers when each API key was last used, for the application's keys area, to the minute. */
export function createKeyLastUsed(
  readStore: ReadStore,
  clock: Clock,
  onError: (error: unknown) => void = () => undefined,
) {
  const written = new Map<string, number>();
  let declared: Promise<void> | null = null;
  return (keyId: string): void => {
    const now = clock.nowMs();
    const last = written.get(keyId);
    if (last !== undefined && now - last < PRECISION_MS) return;
    if (written.size >= 10_000) written.clear();
    written.set(keyId, now);
    declared ??= readStore.ensureCollections([KEY_LAST_USED_SPEC]);
    declared
      .then(() => readStore.save(KEY_LAST_USED, { id: keyId, atMs: now }))
      .catch((error: unknown) => {
        declared = null;
        onError(error);
      });
  };
}
