import { ACCOUNT_CATEGORY } from '../domain/accounts/account.ts';
import type { LogTail } from '../consumers/logTail.ts';
import type { ReadStore } from '../readstore/port.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { hasAccessTokenShape } from '../domain/accounts/accessToken.ts';
import { lookUpAccessToken } from './accessTokens.ts';
import { createKeyLastUsed } from './keyLastUsed.ts';
import { lookUpKey, type AuthContext, type PresentedKey } from './auth.ts';
import type { Consistency } from './consistency.ts';

/** Beyond this many distinct keys the cache starts over rather than tracking recency. */
export const AUTH_CACHE_MAX_KEYS = 10_000;

export type Authenticator = {
  /** A presented key (auth.ts `presentedKey`) → its account as of the request's head, or 401. */
  authenticate(presented: PresentedKey, consistency: Consistency): Promise<AuthContext>;
};

/**
 * API keys resolved from the read models, remembered per key hash until the next event of any
 * account (key created, revoked or rotated, plan changed). Account events are found in the log
 * itself, from any process (the CLI, other replicas), up to the request's head before a
 * remembered key is used, so a rotation or revocation takes effect with the very next request;
 * a remembered key needs no read model, so only a lookup waits for them. They are looked for in
 * the process's log tail, which its consumers read anyway, rather than by a query of their own.
 */
export function createAuthenticator(
  tail: LogTail,
  readStore: ReadStore,
  clock: Clock = systemClock,
): Authenticator {
  const byHash = new Map<string, AuthContext>();
  let generation = 0; // moves on every clear: a lookup that started before one must not be remembered
  let checkedThrough = -1n;
  let checking: Promise<void> | null = null;
  const noteUse = createKeyLastUsed(readStore, clock);

  /** Forget every key if an account event was appended after what was checked, up to `head`. */
  async function checkAccountEvents(head: bigint): Promise<void> {
    while (checkedThrough < head) {
      if (checking) {
        await checking;
        continue;
      }
      checking = (async () => {
        const from = checkedThrough;
        let read = await tail.read(from, [ACCOUNT_CATEGORY], 1, false);
        // Not this far yet: another process appended what the tail has not been told of.
        if (read.events.length === 0 && read.through < head)
          read = await tail.read(from, [ACCOUNT_CATEGORY], 1, true);
        const { events, through } = read;
        if (events.length > 0 && events[0].position <= head) {
          byHash.clear();
          generation++;
        }
        const reached = events.length > 0 || through >= head ? head : through;
        if (checkedThrough === from) checkedThrough = reached;
      })().finally(() => {
        checking = null;
      });
      await checking;
    }
  }

  return {
    async authenticate(presented, consistency) {
      if (hasAccessTokenShape(presented.key))
        return lookUpAccessToken(presented, readStore, clock.nowMs());
      if (checkedThrough < consistency.head) await checkAccountEvents(consistency.head);
      const remembered = byHash.get(presented.hash);
      if (remembered) {
        noteUse(remembered.keyId);
        return remembered;
      }
      const checkedGeneration = generation;
      const current = await consistency.readModelsCurrent();
      const context = await lookUpKey(presented, readStore);
      // Remembered only if the lookup saw every account event the log has been checked through
      // (other requests check further without waiting for the read models), and none came since.
      if (current && generation === checkedGeneration && consistency.head >= checkedThrough) {
        if (byHash.size >= AUTH_CACHE_MAX_KEYS) byHash.clear();
        byHash.set(presented.hash, context);
      }
      noteUse(context.keyId);
      return context;
    },
  };
}
