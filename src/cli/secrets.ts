import { describeSealed, SealedSecretError, type SecretBinding } from '../core/secretBox.ts';
import { loadStream } from '../eventstore/handleCommand.ts';
import type { EventStore } from '../eventstore/port.ts';
import { integrationsStream } from '../domain/integrations/decide.ts';
import { searchAnalyticsStream } from '../domain/searchAnalytics/decide.ts';
import type { Platform } from '../platform.ts';
import { webhookStream } from '../domain/webhooks/decide.ts';

/** Where a stored secret stands with the configured keys: `current` needs nothing; the others need saving again. */
export type SealedState = 'current' | 'retired_key' | 'unbound_v1' | 'does_not_open';
export type StoredSecret = SecretBinding & { keyId: string | null; state: SealedState };
export type SecretsStatus = {
  keys: { current: string; retired: readonly string[] };
  secrets: StoredSecret[];
};

const PAGE = 1000;

async function idsOf(eventStore: EventStore, category: string): Promise<string[]> {
  const ids = new Set<string>();
  for (let after = -1n; ; ) {
    const page = await eventStore.readAll({ after, maxCount: PAGE, categories: [category] });
    for (const event of page) ids.add(event.stream.slice(category.length + 1));
    if (page.length < PAGE) return [...ids];
    after = page[page.length - 1].position;
  }
}

/** The secrets each record holds now (a deleted endpoint or a removed connection holds none). */
async function currentSecrets(
  platform: Platform,
): Promise<{ binding: SecretBinding; sealed: string }[]> {
  const found: { binding: SecretBinding; sealed: string }[] = [];
  for (const id of await idsOf(platform.eventStore, webhookStream.category)) {
    const { state } = await loadStream(platform.eventStore, webhookStream, id);
    if (state.status === 'none' || state.status === 'deleted') continue;
    found.push({
      binding: { kind: 'webhook-endpoint-secret', accountId: state.accountId, recordId: state.id },
      sealed: state.sealedSecret,
    });
  }
  for (const id of await idsOf(platform.eventStore, integrationsStream.category)) {
    const { state } = await loadStream(platform.eventStore, integrationsStream, id);
    if (!state.accountId) continue;
    const owner = { accountId: state.accountId, recordId: id };
    if (state.github) {
      found.push({
        binding: { kind: 'github-credentials', ...owner },
        sealed: state.github.sealedCredentials,
      });
      found.push({
        binding: { kind: 'github-webhook-secret', ...owner },
        sealed: state.github.sealedWebhookSecret,
      });
    }
    if (state.postPublishHook)
      found.push({
        binding: { kind: 'post-publish-hook-secret', ...owner },
        sealed: state.postPublishHook.sealedSecret,
      });
  }
  for (const id of await idsOf(platform.eventStore, searchAnalyticsStream.category)) {
    const { state } = await loadStream(platform.eventStore, searchAnalyticsStream, id);
    if (state.connection && state.accountId) {
      found.push({
        binding: { kind: 'search-credentials', accountId: state.accountId, recordId: id },
        sealed: state.connection.sealedCredentials,
      });
    }
  }
  return found;
}

/**
 * Every secret the records hold now, and whether it is sealed under the current key: before a
 * retired key is dropped, nothing may still need it. Read-only: nothing is appended.
 */
export async function secretsStatus(platform: Platform): Promise<SecretsStatus> {
  const { keyIds } = platform.secrets;
  const secrets = (await currentSecrets(platform)).map(({ binding, sealed }): StoredSecret => {
    const { version, keyId } = describeSealed(sealed);
    try {
      platform.secrets.open(sealed, binding);
    } catch (error) {
      if (!(error instanceof SealedSecretError)) throw error;
      return { ...binding, keyId, state: 'does_not_open' };
    }
    const state: SealedState =
      version === 'v1' ? 'unbound_v1' : keyId === keyIds.current ? 'current' : 'retired_key';
    return { ...binding, keyId, state };
  });
  return { keys: keyIds, secrets };
}

const ACTION: Record<Exclude<SealedState, 'current'>, string> = {
  retired_key: 'sealed under a retired key: save it again',
  unbound_v1: 'sealed before bindings (v1): save it again',
  does_not_open:
    'does not open with the configured keys: save it again, or add its key to INKSTREAM_SECRET_KEYS_RETIRED',
};

export function printSecretsStatus(status: SecretsStatus, print: (line: string) => void): void {
  const { keys, secrets } = status;
  print(
    `Keys: current ${keys.current}${keys.retired.length ? `; retired ${keys.retired.join(', ')}` : ''}`,
  );
  const pending = secrets.filter((secret) => secret.state !== 'current');
  print(`Stored secrets: ${secrets.length}, of which ${pending.length} need saving again.`);
  for (const secret of pending) {
    print(
      `  ${secret.kind} of ${secret.recordId} (account ${secret.accountId})${secret.keyId ? `, key ${secret.keyId}` : ''}: ${ACTION[secret.state as Exclude<SealedState, 'current'>]}`,
    );
  }
  if (keys.retired.length && pending.length === 0)
    print(
      'No stored secret needs a retired key: they can be dropped from INKSTREAM_SECRET_KEYS_RETIRED.',
    );
}
