import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import { ACCOUNT_EVENTS, type AccountEvent } from '../src/domain/accounts/account.ts';

/** One document per key, found by the SHA-256 of the key on every request. */
export type ApiKeyDoc = {
  id: string;
  accountId: string;
  name: string;
  hash: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  replacedBy: string | null;
};

export const apiKeys = defineProjection<ApiKeyDoc, AccountEvent>({
  name: 'apiKeys',
  collection: 'api_keys',
  indexes: ['hash', 'accountId'],
  categories: ['account'],
  events: ACCOUNT_EVENTS,
  documentId(event) {
    return event.type === 'ApiKeyCreated' || event.type === 'ApiKeyRevoked'
      ? event.data.keyId
      : null;
  },
  evolve(doc, event) {
    switch (event.type) {
      case 'ApiKeyCreated': {
        const { keyId, accountId, name, hash, prefix, at } = event.data;
        return {
          id: keyId,
          accountId,
          name,
          hash,
          prefix,
          createdAt: at,
          revokedAt: null,
          replacedBy: null,
        };
      }
      case 'ApiKeyRevoked':
        return doc && { ...doc, revokedAt: event.data.at, replacedBy: event.data.replacedBy };
      default:
        return doc;
    }
  },
});
