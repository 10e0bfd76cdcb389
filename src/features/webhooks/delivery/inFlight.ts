import { positionFromText, positionToText } from '../../../core/positions.ts';
import type { ReadModelWrite, ReadStore } from '../../../readstore/port.ts';
import { IN_FLIGHT } from '../collections.ts';

/**
 * What is being sent right now: one small row per endpoint and concurrency slot, claimed before an
 * attempt and released after its outcome is stored. A row still claimed at start names an
 * attempt a crash cut short. Kept apart from the deliveries (which carry the queue's indexes) so
 * that marking a delivery in flight costs a write to a tiny, unindexed table; one row per slot, so
 * the table never grows beyond endpoints × slots.
 */
/** Attempts made at once to one endpoint: its slots, and its connections. */
export const CONCURRENCY_PER_ENDPOINT = 8;

export type InFlightDoc = {
  id: string;
  endpointId: string;
  deliveryId: string | null;
  since: string | null;
  seq: string;
};

export const slotId = (endpointId: string, slot: number): string => `${endpointId}.${slot}`;

export function createInFlightSlots(readStore: ReadStore) {
  // Each write to a slot row must be newer than the last (the store keeps the newest): wall-clock
  // microseconds, never below what the rows already hold.
  let last = 0n;
  const nextPosition = (): bigint => {
    const now = BigInt(Date.now()) * 1000n;
    last = now > last ? now : last + 1n;
    return last;
  };
  const write = (
    endpointId: string,
    slot: number,
    deliveryId: string | null,
    since: string | null,
  ): ReadModelWrite => {
    const position = nextPosition();
    return {
      kind: 'put',
      collection: IN_FLIGHT,
      id: slotId(endpointId, slot),
      position,
      doc: {
        id: slotId(endpointId, slot),
        endpointId,
        deliveryId,
        since,
        seq: positionToText(position),
      },
    };
  };

  return {
    claim: (endpointId: string, slot: number, deliveryId: string, since: string) =>
      write(endpointId, slot, deliveryId, since),
    release: (endpointId: string, slot: number) => write(endpointId, slot, null, null),
    /** Every slot row; the claimed ones are attempts a crash cut short. */
    async recover(): Promise<InFlightDoc[]> {
      const rows: InFlightDoc[] = [];
      let cursor: string | undefined;
      do {
        const page = await readStore.find<InFlightDoc>(IN_FLIGHT, { limit: 500, cursor });
        rows.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      for (const row of rows)
        if (positionFromText(row.seq) > last) last = positionFromText(row.seq);
      return rows.filter((row) => row.deliveryId !== null);
    },
  };
}

export type InFlightSlots = ReturnType<typeof createInFlightSlots>;

/** Whether a delivery is being sent right now (for the API). */
export async function isInFlight(
  readStore: ReadStore,
  endpointId: string,
  deliveryId: string,
  slots: number,
): Promise<boolean> {
  const rows = await readStore.getMany<InFlightDoc>(
    IN_FLIGHT,
    Array.from({ length: slots }, (_, slot) => slotId(endpointId, slot)),
  );
  return rows.some((row) => row.deliveryId === deliveryId);
}
