export type AppendListener = (position: bigint) => void;

export interface AppendListeners {
  add(listener: AppendListener): () => void;
  notify(position: bigint): void;
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
      return () => { entries.delete(entry); };
    },
    notify(position) {
      for (const { listener } of [...entries]) {
        try {
          listener(position);
        } catch (error) {
          queueMicrotask(() => { throw error; });
        }
      }
    },
  };
}
