import type { ReadModelWrite, ReadStore } from '../../../readstore/port.ts';
import { ATTEMPT_STATS } from '../collections.ts';

export const HOUR_MS = 3_600_000;

/** One endpoint's attempts in one hour, by outcome. The id starts with the hour, so retention walks ids in time order. */
export type AttemptStatsDoc = {
  id: string;
  endpointId: string;
  hour: string;
  succeeded: number;
  failed: number;
};

export const hourOf = (atMs: number): string =>
  new Date(Math.floor(atMs / HOUR_MS) * HOUR_MS).toISOString();
export const attemptStatsId = (endpointId: string, hour: string): string => `${hour}|${endpointId}`;

/** Hours kept in memory: an attempt that started before the hour turned may still be settling. */
const HOURS_KEPT = 3;

/**
 * Counts one endpoint's attempt outcomes per hour, so the success-rate chart reads one row per
 * hour instead of every delivery. Only the dispatcher's lane of the endpoint writes them, one
 * process at a time (the background lease); the counts live in memory (loaded once per hour) and
 * every write carries the hour's total as its guard, so writes batched out of order keep the
 * latest. The write goes into the same transaction as the delivery's outcome.
 */
export function createAttemptStats(readStore: ReadStore, endpointId: string) {
  const hours = new Map<string, Promise<AttemptStatsDoc>>();

  async function load(hour: string): Promise<AttemptStatsDoc> {
    const id = attemptStatsId(endpointId, hour);
    return (
      (await readStore.get<AttemptStatsDoc>(ATTEMPT_STATS, id)) ?? {
        id,
        endpointId,
        hour,
        succeeded: 0,
        failed: 0,
      }
    );
  }

  return {
    /** The write that counts an attempt started at `atMs`. */
    async record(atMs: number, ok: boolean): Promise<ReadModelWrite> {
      const hour = hourOf(atMs);
      let loading = hours.get(hour);
      if (!loading) {
        loading = load(hour);
        hours.set(hour, loading);
        const older = [...hours.keys()].filter((kept) => kept !== hour).sort();
        if (hours.size > HOURS_KEPT) hours.delete(older[0]);
      }
      const doc = await loading;
      if (ok) doc.succeeded += 1;
      else doc.failed += 1;
      return {
        kind: 'put',
        collection: ATTEMPT_STATS,
        id: doc.id,
        doc: { ...doc },
        position: BigInt(doc.succeeded + doc.failed),
      };
    },
  };
}

export type AttemptStats = ReturnType<typeof createAttemptStats>;
