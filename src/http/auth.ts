import type { Actor } from '../eventstore/port.ts';
import {
  hasApiKeyShape,
  hashApiKey,
  hashesEqual,
  isWellFormedApiKey,
} from '../domain/accounts/apiKey.ts';
import type { PlanName } from '../domain/accounts/plans.ts';
import type { MemberRole } from '../domain/accounts/members.ts';
import { hasAccessTokenShape } from '../domain/accounts/accessToken.ts';
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
  actor: Extract<Actor, { kind: 'api_key' | 'member' }>;
  /** A member's role when the caller is a signed-in member's access token; keys act with full rights. */
  role?: MemberRole;
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A viewer reads everything and changes nothing: the auditor's seat. */
export function requireWriteAccess(auth: AuthContext, method: string): void {
  if (auth.role === 'viewer' && !SAFE_METHODS.has(method.toUpperCase())) {
    throw new AppError(
      'forbidden',
      'Your role is viewer: you can read everything but change nothing. Ask an owner of the account for the editor role.',
    );
  }
}

const unauthorized = (message: string) => new AppError('unauthorized', message);
const notOurs = () =>
  unauthorized('That is not an Inkstream API key (expected ink_… with a valid checksum).');

/** Why a well-formed key was refused: kept for the log, never told to the caller. */
export type KeyRefusal = { refused: 'unknown' | 'revoked' | 'no_account'; keyId?: string };

// One answer for a key that never existed and one that was revoked: a caller holding a leaked,
// revoked key learns nothing about it from us. The log keeps the difference (KeyRefusal).
const refused = (cause: KeyRefusal) =>
  new AppError(
    'unauthorized',
    'Unknown or revoked API key: use a current key, or create one in the application.',
    { cause },
  );

export const keyRefusalOf = (error: unknown): KeyRefusal | undefined =>
  error instanceof AppError &&
  error.code === 'unauthorized' &&
  typeof error.cause === 'object' &&
  error.cause !== null &&
  'refused' in error.cause
    ? (error.cause as KeyRefusal)
    : undefined;

/** A presented key: the key itself and its SHA-256, the only form in which keys are stored or remembered. */
export type PresentedKey = { key: string; hash: string };

/** `Authorization: Bearer <key>` → the key and its hash, or 401 for a missing or malformed header or a key of another shape. */
export function presentedKey(header: string | undefined): PresentedKey {
  if (!header) throw unauthorized('Send your API key as "Authorization: Bearer <key>".');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('The Authorization header must be "Bearer <key>".');
  const key = match[1];
  if (!hasApiKeyShape(key) && !hasAccessTokenShape(key)) throw notOurs();
  return { key, hash: hashApiKey(key) };
}

/** The key's account from the read models, or 401 for a bad checksum and unknown or revoked keys. */
export async function lookUpKey(
  { key, hash }: PresentedKey,
  readStore: ReadStore,
): Promise<AuthContext> {
  if (!isWellFormedApiKey(key)) throw notOurs();
  const found = await readStore.find<ApiKeyDoc>('api_keys', { filter: { hash }, limit: 1 });
  const record = found.items[0];
  if (!record || !hashesEqual(record.hash, hash)) throw refused({ refused: 'unknown' });
  if (record.revokedAt) throw refused({ refused: 'revoked', keyId: record.id });
  const account = await readStore.get<AccountDoc>('accounts', record.accountId);
  if (!account) throw refused({ refused: 'no_account', keyId: record.id });
  return {
    accountId: account.id,
    accountName: account.name,
    plan: account.plan,
    keyId: record.id,
    keyName: record.name,
    actor: { kind: 'api_key', keyId: record.id, keyName: record.name },
  };
}
