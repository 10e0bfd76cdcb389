import type { Platform } from '../../platform.ts';
import { createOwners, type Owners } from './owners.ts';

/** An open stream as the hub sees it: woken when the log may have grown, ended on shutdown. */
export type OpenStream = {
  accountId: string;
  /** `fresh`: the append may be another process's, so the log itself must be looked at. */
  wake(fresh: boolean): void;
  end(): void;
};

export type LiveHub = {
  owners: Owners;
  /** Registers a stream, or answers false when its account has `cap` open already. */
  admit(stream: OpenStream, cap: number): boolean;
  leave(stream: OpenStream): void;
  /** Ends every open stream (the server is stopping: an open stream would hold it up). */
  endAll(): void;
};

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
  const perAccount = new Map<string, number>();
  let unsubscribe: (() => void) | null = null;
  let poll: NodeJS.Timeout | null = null;
  const wakeAll = (fresh: boolean) => {
    for (const stream of streams) stream.wake(fresh);
  };

  return {
    owners: createOwners(eventStore),
    admit(stream, cap) {
      const open = perAccount.get(stream.accountId) ?? 0;
      if (open >= cap) return false;
      perAccount.set(stream.accountId, open + 1);
      streams.add(stream);
      unsubscribe ??= eventStore.onAppend(() => wakeAll(false));
      poll ??= setInterval(() => wakeAll(true), POLL_MS).unref();
      return true;
    },
    leave(stream) {
      if (!streams.delete(stream)) return;
      const open = (perAccount.get(stream.accountId) ?? 1) - 1;
      if (open === 0) perAccount.delete(stream.accountId);
      else perAccount.set(stream.accountId, open);
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
