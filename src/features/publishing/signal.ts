/**
 * In-process wake-up for the publishing worker: the consumer that queues jobs (after its commit)
 * and the GitHub events route call `notify`, so work starts now instead of at the next poll.
 */
export type PublishingSignal = { notify(): void; subscribe(listener: () => void): () => void };

const signals = new WeakMap<object, PublishingSignal>();

export function publishingSignal(owner: object): PublishingSignal {
  let signal = signals.get(owner);
  if (signal) return signal;
  const listeners = new Set<() => void>();
  signal = {
    notify() {
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  signals.set(owner, signal);
  return signal;
}
