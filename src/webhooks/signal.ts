/**
 * In-process wake-ups for the dispatcher: the outbox (after committing rows) and the API
 * (redeliver, test) name the endpoints that have new work, so their lanes start at once instead
 * of at the next fallback poll. One signal per services instance (one Inkstream in the process).
 */
export type WebhookSignal = {
  notify(endpointIds: Iterable<string>): void;
  subscribe(listener: (endpointIds: string[]) => void): () => void;
};

const signals = new WeakMap<object, WebhookSignal>();

export function webhookSignal(owner: object): WebhookSignal {
  let signal = signals.get(owner);
  if (signal) return signal;
  const listeners = new Set<(endpointIds: string[]) => void>();
  signal = {
    notify(endpointIds) {
      const ids = [...endpointIds];
      if (ids.length === 0) return;
      for (const listener of listeners) listener(ids);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  signals.set(owner, signal);
  return signal;
}
