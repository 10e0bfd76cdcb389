import type { Worker } from '../../app/background.ts';
import type { ConsumerDefinition } from '../../consumers/runner.ts';
import type { Services } from '../../app/platform.ts';
import { webhookDispatcher } from './delivery/dispatcher.ts';
import { webhookOutbox } from './feed/outbox.ts';
import { webhookSignal } from './signal.ts';

/** The webhook feature's background work: the outbox consumer and the delivery dispatcher. */
export function webhookJobs(services: Services): { consumers: ConsumerDefinition[]; workers: Worker[] } {
  const signal = webhookSignal(services);
  const outbox = webhookOutbox({
    eventStore: services.eventStore, readStore: services.readStore, signal, nowMs: () => services.clock.nowMs(),
  });
  return { consumers: [outbox], workers: [webhookDispatcher()] };
}
