import type { DeliveryDoc } from './delivery/delivery.ts';

/**
 * In-process wake-ups for the dispatcher, so that a new delivery starts at once instead of at the
 * next fallback poll. The outbox hands over the rows it has just committed (the lanes need not
 * read them back); the API (redeliver, test) names the endpoints whose rows changed. One signal
 * per platform instance (one Inkstream in the process).
 */
export type SignalListener = {
  wake(endpointIds: string[]): void;
  offer(deliveries: readonly DeliveryDoc[]): void;
};

export type WebhookSignal = {
  notify(endpointIds: Iterable<string>): void;
  offer(deliveries: readonly DeliveryDoc[]): void;
  subscribe(listener: SignalListener): () => void;
};

const signals = new WeakMap<object, WebhookSignal>();

export function webhookSignal(owner: object): WebhookSignal {
  let signal = signals.get(owner);
  if (signal) return signal;
  const listeners = new Set<SignalListener>();
  signal = {
    notify(endpointIds) {
      const ids = [...endpointIds];
      if (ids.length > 0) for (const listener of listeners) listener.wake(ids);
    },
    offer(deliveries) {
      if (deliveries.length > 0) for (const listener of listeners) listener.offer(deliveries);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  signals.set(owner, signal);
  return signal;
}
