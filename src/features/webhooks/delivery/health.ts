import type { ReadStore } from '../../../readstore/port.ts';
import { ENDPOINT_HEALTH } from '../collections.ts';

/** An endpoint whose every attempt has failed for this long is disabled. */
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;

export type HealthDoc = { id: string; failingSince: string | null };

/**
 * Since when an endpoint has been failing without a single success in between. Kept in memory by
 * the dispatcher, written only when it changes (first failure, first success after failures).
 */
export function createHealthTracker(readStore: ReadStore, endpointId: string) {
  let failingSince: number | null | undefined;

  async function current(): Promise<number | null> {
    if (failingSince === undefined) {
      const doc = await readStore.get<HealthDoc>(ENDPOINT_HEALTH, endpointId);
      failingSince = doc?.failingSince ? Date.parse(doc.failingSince) : null;
    }
    return failingSince;
  }

  return {
    async succeeded(): Promise<void> {
      if ((await current()) === null) return;
      failingSince = null;
      await readStore.save(ENDPOINT_HEALTH, { id: endpointId, failingSince: null });
    },
    /** Records a failure; true when the endpoint has now failed continuously for 5 days since it was (re-)enabled. */
    async failed(nowMs: number, enabledAtMs: number): Promise<boolean> {
      let since = await current();
      if (since === null || since < enabledAtMs) {
        since = Math.max(nowMs, enabledAtMs);
        failingSince = since;
        await readStore.save(ENDPOINT_HEALTH, {
          id: endpointId,
          failingSince: new Date(since).toISOString(),
        });
      }
      return nowMs - since >= FAILING_DISABLE_AFTER_MS;
    },
  };
}

export type HealthTracker = ReturnType<typeof createHealthTracker>;
