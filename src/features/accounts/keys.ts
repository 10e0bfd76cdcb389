import type { Platform } from '../../platform.ts';
import { AppError } from '../../core/errors.ts';
import type { Actor } from '../../eventstore/port.ts';
import type { ApiKeyDoc } from '../../../projections/apiKeys.ts';
import type { AccountDoc } from '../../../projections/accounts.ts';
import { accountIdForName } from '../../domain/accounts/account.ts';
import { accountStream } from '../../domain/accounts/decide.ts';
import { displayPrefix, generateApiKey, hashApiKey } from '../../domain/accounts/apiKey.ts';
import type { PlanName } from '../../domain/accounts/plans.ts';

/** The application's "API keys area": what the admin CLI and the first start call. */
export type IssuedKey = { id: string; key: string; account: string; accountId: string };

/** The actor of an operator's command when its caller does not name one (the CLI names the OS user: cli/actor.ts). */
const OPERATOR: Actor = { kind: 'cli', user: 'admin' };

/** Metadata for an operator's command on an account: one fresh id is its correlation, request and command id. */
export function contextFor(platform: Pick<Platform, 'ids'>, accountId: string, actor: Actor) {
  const commandId = platform.ids.next('cor');
  return { accountId, actor, correlationId: commandId, requestId: commandId, commandId };
}

function newKey(platform: Platform, name: string) {
  const key = generateApiKey();
  return {
    key,
    record: {
      keyId: platform.ids.next('key'),
      name,
      hash: hashApiKey(key),
      prefix: displayPrefix(key),
    },
  };
}

export async function createApiKey(
  platform: Platform,
  options: { account: string; plan?: PlanName; name?: string; actor?: Actor },
): Promise<IssuedKey> {
  const accountName = options.account.trim();
  if (!/^[\w.@-]{1,64}$/.test(accountName))
    throw new AppError(
      'validation_failed',
      'Account names are 1–64 letters, digits, ".", "_", "-" or "@".',
    );
  const accountId = accountIdForName(accountName);
  const { key, record } = newKey(platform, options.name ?? 'default');
  await platform.commands.execute(
    accountStream,
    accountId,
    {
      type: 'CreateApiKey',
      accountId,
      name: accountName,
      plan: options.plan ?? platform.config.INKSTREAM_DEFAULT_PLAN,
      key: record,
      at: platform.clock.now(),
    },
    contextFor(platform, accountId, options.actor ?? OPERATOR),
  );
  return { id: record.keyId, key, account: accountName, accountId };
}

/** Who rotates or revokes, and the account the key must belong to (the application's keys area); the CLI may name any key. */
export type KeyChange = { accountId?: string; actor?: Actor };

async function keyRecord(
  platform: Platform,
  keyId: string,
  accountId?: string,
): Promise<ApiKeyDoc> {
  await platform.readModels.catchUp(5000);
  const record = await platform.readStore.get<ApiKeyDoc>('api_keys', keyId);
  if (!record || (accountId !== undefined && record.accountId !== accountId))
    throw new AppError('not_found', `No API key ${keyId}.`);
  return record;
}

/** Issues a new key and revokes the old one in one append: from then on the old key gets 401. */
export async function rotateApiKey(
  platform: Platform,
  keyId: string,
  change: KeyChange = {},
): Promise<IssuedKey> {
  const record = await keyRecord(platform, keyId, change.accountId);
  const { key, record: replacement } = newKey(platform, record.name);
  const result = await platform.commands.execute(
    accountStream,
    record.accountId,
    { type: 'RotateApiKey', keyId, key: replacement, at: platform.clock.now() },
    contextFor(platform, record.accountId, change.actor ?? OPERATOR),
  );
  const account = result.state.status === 'active' ? result.state.name : '';
  return { id: replacement.keyId, key, account, accountId: record.accountId };
}

export async function revokeApiKey(
  platform: Platform,
  keyId: string,
  change: KeyChange = {},
): Promise<void> {
  const record = await keyRecord(platform, keyId, change.accountId);
  await platform.commands.execute(
    accountStream,
    record.accountId,
    { type: 'RevokeApiKey', keyId, at: platform.clock.now() },
    contextFor(platform, record.accountId, change.actor ?? OPERATOR),
  );
}

export async function listApiKeys(platform: Platform, accountName: string): Promise<ApiKeyDoc[]> {
  await platform.readModels.catchUp(5000);
  const accountId = accountIdForName(accountName);
  const page = await platform.readStore.find<ApiKeyDoc>('api_keys', {
    filter: { accountId },
    limit: 200,
    sort: { field: 'id', direction: 'asc' },
  });
  return page.items;
}

export async function setAccountPlan(
  platform: Platform,
  accountName: string,
  plan: PlanName,
  actor: Actor = OPERATOR,
): Promise<void> {
  const accountId = accountIdForName(accountName);
  await platform.readModels.catchUp(5000);
  const account = await platform.readStore.get<AccountDoc>('accounts', accountId);
  if (!account) throw new AppError('not_found', `No account named ${accountName}.`);
  await platform.commands.execute(
    accountStream,
    accountId,
    { type: 'SetPlan', plan, at: platform.clock.now() },
    contextFor(platform, accountId, actor),
  );
}

/** First start on an empty store: a `default` account with one key, printed once. */
export async function bootstrapDefaultAccount(platform: Platform): Promise<IssuedKey | null> {
  if ((await platform.eventStore.headPosition()) >= 0n) return null;
  return createApiKey(platform, {
    account: 'default',
    name: 'default',
    actor: { kind: 'system', worker: 'bootstrap' },
  });
}
