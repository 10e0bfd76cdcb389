import type { ReadStore } from '../readstore/port.ts';
import { removeOldest } from '../readstore/removeOldest.ts';
import {
  IDEMPOTENCY_COLLECTION,
  IDEMPOTENCY_SPEC,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyRecord,
} from './idempotency.ts';

/** Deletes the Idempotency-Key records past their 24 h (a lookup already ignores them). */
export async function expireIdempotencyKeys(readStore: ReadStore, nowMs: number): Promise<number> {
  await readStore.ensureCollections([IDEMPOTENCY_SPEC]);
  return removeOldest<IdempotencyRecord>(readStore, IDEMPOTENCY_COLLECTION, {
    sortField: 'createdAtMs',
    isOld: (record) => nowMs - record.createdAtMs >= IDEMPOTENCY_TTL_MS,
  });
}
