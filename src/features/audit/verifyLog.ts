import type { EventStore } from '../../eventstore/port.ts';

export type VerifyReport = {
  events: number;
  streams: number;
  firstPosition: string | null;
  lastPosition: string | null;
  problems: string[];
};

const MAX_PROBLEMS = 100;

/**
 * Reads the whole log once and checks what the store promises: positions strictly increasing and
 * (on the embedded default) gapless, each stream's revisions 0, 1, 2, … in log order, and no
 * event id twice. Memory grows with the number of streams and ids, not with event bodies.
 */
export async function verifyLog(
  store: EventStore,
  options: { gapless: boolean; onProgress?: (done: number, position: bigint) => void },
): Promise<VerifyReport> {
  const nextRevision = new Map<string, bigint>();
  const seenIds = new Set<string>();
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(text);
  };
  let previous: bigint | null = null;
  let first: bigint | null = null;
  let events = 0;
  for (;;) {
    const batch = await store.readAll({ after: previous ?? -1n, maxCount: 5000 });
    if (batch.length === 0) break;
    for (const event of batch) {
      if (first === null) first = event.position;
      if (previous !== null && event.position <= previous)
        problem(`position ${event.position} does not follow ${previous}`);
      if (options.gapless && previous !== null && event.position !== previous + 1n)
        problem(`gap: position ${event.position} follows ${previous}`);
      if (options.gapless && previous === null && event.position !== 0n)
        problem(`the log starts at position ${event.position}, not 0`);
      const expected = nextRevision.get(event.stream) ?? 0n;
      if (event.revision !== expected)
        problem(
          `stream ${event.stream}: revision ${event.revision} where ${expected} was expected (position ${event.position})`,
        );
      nextRevision.set(event.stream, event.revision + 1n);
      if (seenIds.has(event.id))
        problem(`event id ${event.id} appears twice (position ${event.position})`);
      seenIds.add(event.id);
      previous = event.position;
      events++;
    }
    options.onProgress?.(events, batch[batch.length - 1].position);
  }
  return {
    events,
    streams: nextRevision.size,
    firstPosition: first?.toString() ?? null,
    lastPosition: previous?.toString() ?? null,
    problems,
  };
}
