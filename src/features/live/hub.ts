import type { Platform } from '../../platform.ts';
import { createOwners, type Owners } from './owners.ts';

/** An open stream as the hub sees it: woken when the log may have grown, ended on shutdown. */
export type OpenStream = {
  accountId: string;
  /** Who opened it: the credential (a key, or one access token) and, for a member, the member. */
  holders?: { credential: string; member?: string };
  /** `fresh`: the append may be another process's, so the log itself must be looked at. */
  wake(fresh: boolean): void;
  end(): void;
};

export type LiveHub = {
  owners: Owners;
  /**
   * Registers a stream, or answers which cap it would pass (its account's, its credential's or its
   * member's) without registering it.
   */
  admit(stream: OpenStream, caps: LiveCaps): 'account' | 'credential' | 'member' | null;
  leave(stream: OpenStream): void;
  /** Ends every open stream (the server is stopping: an open stream would hold it up). */
  endAll(): void;
};

/** Open streams allowed at once: per account, and under it per credential and per member. */
export type LiveCaps = { account: number; credential: number; member: number };

/** How often open streams look at the log for appends made by other processes (the CLI, replicas). */
const POLL_MS = 1000;

const hubs = new WeakMap<Pick<Platform, 'eventStore'>, LiveHub>();

/** The process's one hub for a platform: its streams by account, woken by this process's appends and a poll. */
export function liveHub(platform: Pick<Platform, 'eventStore'>): LiveHub {
  let hub = hubs.get(platform);
  if (!hub) {
    hub = createHub(platform);
    hubs.set(platform, hub);
  }
  return hub;
}

function createHub({ eventStore }: Pick<Platform, 'eventStore'>): LiveHub {
  const streams = new Set<OpenStream>();
  // Open streams by holder: `a:` accounts, `c:` credentials, `m:` members.
  const open = new Map<string, number>();
  const holdersOf = (stream: OpenStream) =>
    [
      ['account', `a:${stream.accountId}`],
      ['credential', stream.holders && `c:${stream.holders.credential}`],
      ['member', stream.holders?.member && `m:${stream.holders.member}`],
    ] as const;
  const count = (holder: string, by: number) => {
    const now = (open.get(holder) ?? 0) + by;
    if (now === 0) open.delete(holder);
    else open.set(holder, now);
  };
  let unsubscribe: (() => void) | null = null;
  let poll: NodeJS.Timeout | null = null;
  const wakeAll = (fresh: boolean) => {
    for (const stream of streams) stream.wake(fresh);
  };

  return {
    owners: createOwners(eventStore),
    admit(stream, caps) {
      const holders = holdersOf(stream);
      for (const [which, holder] of holders)
        if (holder && (open.get(holder) ?? 0) >= caps[which]) return which;
      for (const [, holder] of holders) if (holder) count(holder, 1);
      streams.add(stream);
      unsubscribe ??= eventStore.onAppend(() => wakeAll(false));
      poll ??= setInterval(() => wakeAll(true), POLL_MS).unref();
      return null;
    },
    leave(stream) {
      if (!streams.delete(stream)) return;
      for (const [, holder] of holdersOf(stream)) if (holder) count(holder, -1);
      if (streams.size === 0) {
        unsubscribe?.();
        unsubscribe = null;
        if (poll) clearInterval(poll);
        poll = null;
      }
    },
    endAll() {
      for (const stream of [...streams]) stream.end();
    },
  };
}
