import type { Worker } from '../../app/background.ts';
import type { ConsumerDefinition } from '../../consumers/runner.ts';
import type { Platform } from '../../platform.ts';
import { webhookDispatcher } from './delivery/dispatcher.ts';
import { webhookOutbox } from './feed/outbox.ts';
import { webhookSignal } from './signal.ts';

/** The webhook feature's background work: the outbox consumer and the delivery dispatcher. */
export function webhookJobs(platform: Platform): { consumers: ConsumerDefinition[]; workers: Worker[] } {
  const signal = webhookSignal(platform);
  const outbox = webhookOutbox({
    eventStore: platform.eventStore, readStore: platform.readStore, signal, nowMs: () => platform.clock.nowMs(),
  });
  return { consumers: [outbox], workers: [webhookDispatcher()] };
}
