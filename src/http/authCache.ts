import { ACCOUNT_CATEGORY } from '../accounts/account.ts';
import type { EventStore } from '../eventstore/port.ts';
import type { ReadStore } from '../readstore/port.ts';
import { authenticate, type AuthContext } from './auth.ts';

/** Beyond this many distinct keys the cache starts over rather than tracking recency. */
export const AUTH_CACHE_MAX_KEYS = 10_000;

export type Authenticator = {
  /**
   * `head` is the log position read before the read models were caught up; `readModelsCurrent`
   * says whether they reached it. Only then may a lookup be cached.
   */
  authenticate(header: string | undefined, freshness: { head: bigint; readModelsCurrent: boolean }): Promise<AuthContext>;
};

/**
 * API keys resolved from the read models, remembered per key hash until the next event of any
 * account (key created, revoked or rotated, plan changed). Account events are found in the log
 * itself, from any process (the CLI, other replicas), before a remembered key is used, so a
 * rotation or revocation takes effect with the very next request.
 */
export function createAuthenticator(eventStore: EventStore, readStore: ReadStore): Authenticator {
  const byHash = new Map<string, AuthContext>();
  let generation = 0; // moves on every clear: a lookup that started before one must not be remembered
  let checkedThrough = -1n;
  let checking: Promise<void> | null = null;

  /** Forget every key if an account event was appended after what was checked, up to `head`. */
  async function checkAccountEvents(head: bigint): Promise<void> {
    while (checkedThrough < head) {
      if (checking) { await checking; continue; }
      checking = (async () => {
        const from = checkedThrough;
        const events = await eventStore.readAll({ after: from, categories: [ACCOUNT_CATEGORY], maxCount: 1 });
        if (events.length > 0 && events[0].position <= head) {
          byHash.clear();
          generation++;
        }
        if (checkedThrough === from) checkedThrough = head;
      })().finally(() => { checking = null; });
      await checking;
    }
  }

  return {
    async authenticate(header, { head, readModelsCurrent }) {
      await checkAccountEvents(head);
      const checkedGeneration = generation;
      return authenticate(header, readStore, {
        get: (hash) => byHash.get(hash),
        set(hash, context) {
          if (!readModelsCurrent || generation !== checkedGeneration) return;
          if (byHash.size >= AUTH_CACHE_MAX_KEYS) byHash.clear();
          byHash.set(hash, context);
        },
      });
    },
  };
}
