import type { StoredEvent } from './port.ts';

/**
 * `appended`, when the store gives it, returns the events the append wrote, in log order, and
 * `previous` is the position of the log's last event before them.
 */
export type AppendListener = (
  position: bigint,
  appended?: () => readonly StoredEvent[],
  previous?: bigint,
) => void;

export interface AppendListeners {
  add(listener: AppendListener): () => void;
  notify(position: bigint, appended?: () => readonly StoredEvent[], previous?: bigint): void;
}

/**
 * In-process append notifications. A listener runs after the commit, so a listener that throws
 * must not turn a committed append into a failed one: its error is rethrown on its own, outside
 * the append, where it surfaces as any uncaught error does.
 */
export function createAppendListeners(): AppendListeners {
  const entries = new Set<{ listener: AppendListener }>();
  return {
    add(listener) {
      const entry = { listener };
      entries.add(entry);
      return () => {
        entries.delete(entry);
      };
    },
    notify(position, appended, previous) {
      for (const { listener } of [...entries]) {
        try {
          listener(position, appended, previous);
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    },
  };
}
