import { createHash } from 'node:crypto';
import { AppError } from '../core/errors.ts';
import type { CollectionSpec, ReadStore } from '../readstore/port.ts';

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys';
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** createdAtMs is indexed so the retention job can find expired records oldest first. */
export const IDEMPOTENCY_SPEC: CollectionSpec = {
  name: IDEMPOTENCY_COLLECTION,
  indexes: ['createdAtMs'],
};

type StoredResponse = { status: number; body: unknown };
export type IdempotencyRecord = {
  id: string;
  requestHash: string;
  status: number;
  body: string;
  createdAtMs: number;
  /** Where the first response had a once-only secret the record does not keep (`webhook.secret`). */
  withheld?: string[];
};

/**
 * The response as it is kept for replays: every string field named `secret` (a webhook's signing
 * secret, shown once) is left out and its path listed. A replay answers without it, so the secret
 * never sits in the record in plain text nor reaches another caller of the account by its key.
 */
function withoutSecrets(value: unknown, path: string, withheld: string[]): unknown {
  if (Array.isArray(value))
    return value.map((item, index) => withoutSecrets(item, `${path}${index}.`, withheld));
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (key === 'secret' && typeof field === 'string') withheld.push(`${path}${key}`);
    else kept[key] = withoutSecrets(field, `${path}${key}.`, withheld);
  }
  return kept;
}

/**
 * `Idempotency-Key` on a POST: the same key and body within 24 h replay the first response
 * (without its once-only secrets, named in `Idempotent-Withheld`);
 * the same key with another body is refused with 422. Concurrent requests with one key wait for
 * the first to finish, so the work is done once.
 */
export function createIdempotency(readStore: ReadStore, nowMs: () => number) {
  const inFlight = new Map<string, Promise<unknown>>();
  let declared: Promise<void> | null = null;
  const ensureCollection = () =>
    (declared ??= readStore.ensureCollections([IDEMPOTENCY_SPEC]).catch((error) => {
      declared = null;
      throw error;
    }));

  return async function withIdempotency(
    scope: { accountId: string; key: string; method: string; path: string; body: unknown },
    run: () => Promise<StoredResponse>,
  ): Promise<StoredResponse & { replayed: boolean; withheld?: string[] }> {
    if (scope.key.length === 0 || scope.key.length > 255)
      throw new AppError('bad_request', 'Idempotency-Key must be 1 to 255 characters.');
    const id = createHash('sha256').update(`${scope.accountId}\u0000${scope.key}`).digest('hex');
    const requestHash = createHash('sha256')
      .update(`${scope.method} ${scope.path}\u0000${JSON.stringify(scope.body ?? null)}`)
      .digest('hex');
    await ensureCollection();
    while (inFlight.has(id)) await inFlight.get(id)!.catch(() => undefined);

    const existing = await readStore.get<IdempotencyRecord>(IDEMPOTENCY_COLLECTION, id);
    if (existing && nowMs() - existing.createdAtMs < IDEMPOTENCY_TTL_MS) {
      if (existing.requestHash !== requestHash) {
        throw new AppError(
          'idempotency_mismatch',
          'This Idempotency-Key was already used with a different request; use a new key for a new request.',
        );
      }
      return {
        status: existing.status,
        body: JSON.parse(existing.body),
        replayed: true,
        withheld: existing.withheld,
      };
    }
    const work = run();
    inFlight.set(id, work);
    try {
      const response = await work;
      if (response.status < 500) {
        const withheld: string[] = [];
        const kept = withoutSecrets(response.body ?? null, '', withheld);
        await readStore.save(IDEMPOTENCY_COLLECTION, {
          id,
          requestHash,
          status: response.status,
          body: JSON.stringify(kept),
          createdAtMs: nowMs(),
          ...(withheld.length > 0 ? { withheld } : {}),
        });
      }
      return { ...response, replayed: false };
    } finally {
      inFlight.delete(id);
    }
  };
}
