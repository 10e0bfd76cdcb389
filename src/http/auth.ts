import type { Actor } from '../eventstore/port.ts';
import { hashApiKey, hashesEqual, isWellFormedApiKey } from '../accounts/apiKey.ts';
import type { PlanName } from '../accounts/plans.ts';
import { AppError } from '../core/errors.ts';
import type { AccountDoc } from '../../projections/accounts.ts';
import type { ApiKeyDoc } from '../../projections/apiKeys.ts';
import type { ReadStore } from '../readstore/port.ts';

export type AuthContext = {
  accountId: string;
  accountName: string;
  plan: PlanName;
  keyId: string;
  keyName: string;
  actor: Extract<Actor, { kind: 'api_key' }>;
};

const unauthorized = (message: string) => new AppError('unauthorized', message);

/** Remembered lookups by key hash (see authCache.ts); revoked and unknown keys are never remembered. */
export type KeyCache = { get(hash: string): AuthContext | undefined; set(hash: string, context: AuthContext): void };

/** `Authorization: Bearer <key>` → the key's account, or 401 for missing, malformed, unknown or revoked keys. */
export async function authenticate(header: string | undefined, readStore: ReadStore, cache?: KeyCache): Promise<AuthContext> {
  if (!header) throw unauthorized('Send your API key as "Authorization: Bearer <key>".');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <key>".');
  const key = match[1];
  if (!isWellFormedApiKey(key)) throw unauthorized('That is not an Inkstream API key (expected ink_… with a valid checksum).');
  const hash = hashApiKey(key);
  const remembered = cache?.get(hash);
  if (remembered) return remembered;
  const found = await readStore.find<ApiKeyDoc>('api_keys', { filter: { hash }, limit: 1 });
  const record = found.items[0];
  if (!record || !hashesEqual(record.hash, hash)) throw unauthorized('Unknown API key.');
  if (record.revokedAt) throw unauthorized('This API key was revoked. Use its replacement or create a new key.');
  const account = await readStore.get<AccountDoc>('accounts', record.accountId);
  if (!account) throw unauthorized('Unknown API key.');
  const context: AuthContext = {
    accountId: account.id,
    accountName: account.name,
    plan: account.plan,
    keyId: record.id,
    keyName: record.name,
    actor: { kind: 'api_key', keyId: record.id, keyName: record.name },
  };
  cache?.set(hash, context);
  return context;
}
