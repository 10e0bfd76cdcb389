import { useEffect, useRef } from 'react';
import { useLiveChanges, useLiveReload, type LiveChange } from '../live/useLiveChanges.ts';

/** How long a successful action waits for its live change before reloading by itself (the stream may be down). */
const FALLBACK_MS = 2_000;

/**
 * One reload per change. Every change a board shows (its own actions' too) arrives on the live
 * stream, which reloads the board once (debounced). So an action reloads by itself only when it
 * failed (nothing changed, but what the board showed may be stale), or when no change arrived
 * within FALLBACK_MS of its success. Call `begin()` before the request and give its result to
 * `settled(ok)` after it.
 */
export function useBoardRefresh(
  reload: () => Promise<unknown>,
  filter: (change: LiveChange) => boolean,
) {
  const changes = useRef(0);
  const fallback = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(fallback.current), []);
  useLiveChanges(filter, () => {
    changes.current++;
    clearTimeout(fallback.current);
  });
  useLiveReload(() => void reload(), filter);

  return {
    /** A mark of the changes seen so far, taken before an action's request. */
    begin: () => changes.current,
    /** After the request: reload now if it failed; else only if its change has not arrived by FALLBACK_MS. */
    settled(mark: number, ok: boolean) {
      clearTimeout(fallback.current);
      if (!ok) void reload();
      else if (changes.current === mark)
        fallback.current = setTimeout(() => void reload(), FALLBACK_MS);
    },
  };
}
