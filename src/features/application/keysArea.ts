import type { Platform } from '../../platform.ts';
import type { Actor, StoredEvent } from '../../eventstore/port.ts';
import { KEY_LAST_USED, type KeyLastUsedDoc } from '../../http/keyLastUsed.ts';
import { createApiKey, revokeApiKey, rotateApiKey } from '../accounts/keys.ts';
import type { ActiveAccount } from './accountState.ts';
import {
  ensureApplicationCollections,
  MEMBER_PROFILES,
  type MemberProfile,
} from './collections.ts';

export type KeyView = {
  id: string;
  name: string;
  prefix: string;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** The account's keys from its stream, with who made each (from the event's actor) and when it was last used. */
export async function listKeys(
  platform: Pick<Platform, 'readStore'>,
  account: ActiveAccount,
  events: readonly StoredEvent[],
): Promise<KeyView[]> {
  await ensureApplicationCollections(platform.readStore);
  const creators = new Map(
    events
      .filter((event) => event.type === 'ApiKeyCreated')
      .map((event) => [String(event.data.keyId), event.metadata.actor]),
  );
  const memberIds = [...creators.values()].flatMap((actor) =>
    actor.kind === 'member' ? [actor.memberId] : [],
  );
  const profiles = new Map(
    (await platform.readStore.getMany<MemberProfile>(MEMBER_PROFILES, memberIds)).map((profile) => [
      profile.id,
      profile,
    ]),
  );
  const lastUsed = new Map(
    (
      await platform.readStore.getMany<KeyLastUsedDoc>(
        KEY_LAST_USED,
        account.keys.map((key) => key.keyId),
      )
    ).map((doc) => [doc.id, doc.atMs]),
  );
  const describe = (actor: Actor | undefined): string => {
    if (!actor) return 'unknown';
    if (actor.kind === 'member') {
      const profile = profiles.get(actor.memberId);
      return profile ? (profile.name ?? profile.email ?? actor.memberId) : 'a removed member';
    }
    if (actor.kind === 'system') return 'Inkstream (first start)';
    if (actor.kind === 'cli') return `admin CLI (${actor.user})`;
    return actor.kind;
  };
  return account.keys.map((key) => {
    const used = lastUsed.get(key.keyId);
    return {
      id: key.keyId,
      name: key.name,
      prefix: key.prefix,
      createdBy: describe(creators.get(key.keyId)),
      createdAt: key.createdAt,
      lastUsedAt: used === undefined ? null : new Date(used).toISOString(),
      revokedAt: key.revokedAt,
    };
  });
}

export async function createKey(
  platform: Platform,
  account: ActiveAccount,
  name: string,
  actor: Actor,
) {
  const issued = await createApiKey(platform, { account: account.name, name, actor });
  return { id: issued.id, key: issued.key };
}

export async function rotateKey(
  platform: Platform,
  account: ActiveAccount,
  keyId: string,
  actor: Actor,
) {
  const issued = await rotateApiKey(platform, keyId, { accountId: account.id, actor });
  return { id: issued.id, key: issued.key };
}

export const revokeKey = (
  platform: Platform,
  account: ActiveAccount,
  keyId: string,
  actor: Actor,
): Promise<void> => revokeApiKey(platform, keyId, { accountId: account.id, actor });
