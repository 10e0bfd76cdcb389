import { useEffect, useRef } from 'react';
import { accessToken, forgetAccessToken } from '../api/v1Client.ts';
import { openLiveConnection, type LiveChange, type LiveConnection } from './liveConnection.ts';

export type { LiveChange } from './liveConnection.ts';

type Subscriber = {
  filter(change: LiveChange): boolean;
  onChange(change: LiveChange): void;
  /** Changes were missed (the server no longer replays that far back): read everything again. */
  onExpired?(): void;
};

// One stream per tab, shared by every subscriber: opened on the first subscribe, closed when the last goes.
const subscribers = new Set<Subscriber>();
let connection: LiveConnection | null = null;

function deliver(change: LiveChange): void {
  for (const subscriber of subscribers) {
    try {
      if (subscriber.filter(change)) subscriber.onChange(change);
    } catch (error) {
      console.error('a live-change subscriber failed', error);
    }
  }
}

function expired(): void {
  for (const subscriber of subscribers) {
    try {
      subscriber.onExpired?.();
    } catch (error) {
      console.error('a live-change subscriber failed', error);
    }
  }
}

function subscribe(subscriber: Subscriber): () => void {
  subscribers.add(subscriber);
  connection ??= openLiveConnection({
    url: '/api/v1/live',
    token: () => accessToken(),
    onUnauthorized: forgetAccessToken,
    onChange: deliver,
    onExpired: expired,
  });
  return () => {
    subscribers.delete(subscriber);
    if (subscribers.size > 0) return;
    connection?.stop();
    connection = null;
  };
}

/**
 * Calls `onChange` for each change of the account that `filter` accepts, for as long as the
 * component is mounted. The functions may change on every render; the latest ones are used.
 */
export function useLiveChanges(
  filter: (change: LiveChange) => boolean,
  onChange: (change: LiveChange) => void,
  onExpired?: () => void,
): void {
  const latest = useRef({ filter, onChange, onExpired });
  useEffect(() => {
    latest.current = { filter, onChange, onExpired };
  });
  useEffect(
    () =>
      subscribe({
        filter: (change) => latest.current.filter(change),
        onChange: (change) => latest.current.onChange(change),
        onExpired: () => latest.current.onExpired?.(),
      }),
    [],
  );
}

/** Milliseconds of quiet after a matching change before `reload` runs: a burst of changes reloads once. */
const RELOAD_DEBOUNCE_MS = 150;

/** Calls `reload` (debounced) when a change `filter` accepts arrives: a page stays current without polling. */
export function useLiveReload(reload: () => void, filter: (change: LiveChange) => boolean): void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const later = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(reload, RELOAD_DEBOUNCE_MS);
  };
  // Changes missed while away longer than the server replays: the page's data is read again.
  useLiveChanges(filter, later, later);
}
