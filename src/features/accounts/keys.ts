import type { Services } from '../../app/platform.ts';
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

const cliActor = (): Actor => ({ kind: 'cli', user: process.env.USER ?? 'admin' });

function contextFor(services: Services, accountId: string, actor: Actor) {
  const commandId = services.ids.next('cor');
  return { accountId, actor, correlationId: commandId, requestId: commandId, commandId };
}

function newKey(services: Services, name: string) {
  const key = generateApiKey();
  return { key, record: { keyId: services.ids.next('key'), name, hash: hashApiKey(key), prefix: displayPrefix(key) } };
}

export async function createApiKey(
  services: Services, options: { account: string; plan?: PlanName; name?: string; actor?: Actor },
): Promise<IssuedKey> {
  const accountName = options.account.trim();
  if (!/^[\w.@-]{1,64}$/.test(accountName)) throw new AppError('validation_failed', 'Account names are 1–64 letters, digits, ".", "_", "-" or "@".');
  const accountId = accountIdForName(accountName);
  const { key, record } = newKey(services, options.name ?? 'default');
  await services.execute(accountStream, accountId, {
    type: 'CreateApiKey', accountId, name: accountName, plan: options.plan ?? services.config.INKSTREAM_DEFAULT_PLAN, key: record, at: services.clock.now(),
  }, contextFor(services, accountId, options.actor ?? cliActor()));
  return { id: record.keyId, key, account: accountName, accountId };
}

async function keyRecord(services: Services, keyId: string): Promise<ApiKeyDoc> {
  await services.readModels.catchUp(5000);
  const record = await services.readStore.get<ApiKeyDoc>('api_keys', keyId);
  if (!record) throw new AppError('not_found', `No API key ${keyId}.`);
  return record;
}

/** Issues a new key and revokes the old one in one append: from then on the old key gets 401. */
export async function rotateApiKey(services: Services, keyId: string): Promise<IssuedKey> {
  const record = await keyRecord(services, keyId);
  const { key, record: replacement } = newKey(services, record.name);
  const result = await services.execute(accountStream, record.accountId, { type: 'RotateApiKey', keyId, key: replacement, at: services.clock.now() },
    contextFor(services, record.accountId, cliActor()));
  const account = result.state.status === 'active' ? result.state.name : '';
  return { id: replacement.keyId, key, account, accountId: record.accountId };
}

export async function revokeApiKey(services: Services, keyId: string): Promise<void> {
  const record = await keyRecord(services, keyId);
  await services.execute(accountStream, record.accountId, { type: 'RevokeApiKey', keyId, at: services.clock.now() },
    contextFor(services, record.accountId, cliActor()));
}

export async function listApiKeys(services: Services, accountName: string): Promise<ApiKeyDoc[]> {
  await services.readModels.catchUp(5000);
  const accountId = accountIdForName(accountName);
  const page = await services.readStore.find<ApiKeyDoc>('api_keys', { filter: { accountId }, limit: 200, sort: { field: 'id', direction: 'asc' } });
  return page.items;
}

export async function setAccountPlan(services: Services, accountName: string, plan: PlanName): Promise<void> {
  const accountId = accountIdForName(accountName);
  await services.readModels.catchUp(5000);
  const account = await services.readStore.get<AccountDoc>('accounts', accountId);
  if (!account) throw new AppError('not_found', `No account named ${accountName}.`);
  await services.execute(accountStream, accountId, { type: 'SetPlan', plan, at: services.clock.now() }, contextFor(services, accountId, cliActor()));
}

/** First start on an empty store: a `default` account with one key, printed once. */
export async function bootstrapDefaultAccount(services: Services): Promise<IssuedKey | null> {
  if ((await services.eventStore.headPosition()) >= 0n) return null;
  return createApiKey(services, { account: 'default', name: 'default', actor: { kind: 'system', worker: 'bootstrap' } });
}
