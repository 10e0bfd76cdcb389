import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { EventStore, StoredEvent } from '../../eventstore/port.ts';
import { readStreamOrEmpty } from '../../eventstore/readStreamOrEmpty.ts';

/** One event as an NDJSON line: positions and revisions as decimal strings, never JSON numbers. */
export function eventToJsonLine(event: StoredEvent): string {
  return JSON.stringify({
    position: event.position.toString(),
    stream: event.stream,
    revision: event.revision.toString(),
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    data: event.data,
    metadata: event.metadata,
  });
}

export type ExportOptions = {
  stream?: string;
  fromPosition?: bigint;
  batchSize?: number;
  onProgress?: (done: number, position: bigint) => void;
};

/**
 * Streams the log (or one stream) as NDJSON in batches, so memory stays constant whatever its
 * size, honouring the output's back-pressure. Returns the count and the SHA-256 of the bytes written.
 */
export async function exportLog(
  store: EventStore,
  out: Writable,
  options: ExportOptions = {},
): Promise<{ events: number; sha256: string }> {
  const hash = createHash('sha256');
  const batchSize = options.batchSize ?? 5000;
  let events = 0;
  const write = async (chunk: string) => {
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  if (options.stream) {
    let fromRevision = 0n;
    for (;;) {
      const batch = await readStreamOrEmpty(store, options.stream, {
        fromRevision,
        maxCount: batchSize,
      });
      const selected = batch.filter(
        (event) => options.fromPosition === undefined || event.position >= options.fromPosition,
      );
      if (selected.length) await write(`${selected.map(eventToJsonLine).join('\n')}\n`);
      events += selected.length;
      if (batch.length > 0) options.onProgress?.(events, batch[batch.length - 1].position);
      if (batch.length < batchSize) break;
      fromRevision = batch[batch.length - 1].revision + 1n;
    }
  } else {
    let after = (options.fromPosition ?? 0n) - 1n;
    for (;;) {
      const batch = await store.readAll({ after, maxCount: batchSize });
      if (batch.length === 0) break;
      await write(`${batch.map(eventToJsonLine).join('\n')}\n`);
      events += batch.length;
      after = batch[batch.length - 1].position;
      options.onProgress?.(events, after);
    }
  }
  return { events, sha256: hash.digest('hex') };
}
