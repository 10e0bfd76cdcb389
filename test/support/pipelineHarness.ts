/**
 * Drives the pipeline's process managers by hand, for tests that must see each step: the live
 * consumers (all but the projections) are stopped, and `pump` feeds a handler the events of a
 * stream until it appends nothing more. `recordingWriter` counts every call into the writer and
 * can make the next call of a method fail.
 */
import type { StoredEvent } from '../../src/eventstore/port.ts';
import { StreamNotFoundError } from '../../src/eventstore/port.ts';
import { createOfflineWriter } from '../../src/integrations/llm/offline/index.ts';
import type { ContentWriter } from '../../src/integrations/llm/writer.ts';
import type { PartitionedHandler } from '../../src/consumers/partitioned.ts';
import type { Platform } from '../../src/platform.ts';
import type { TestInkstream } from './inkstream.ts';

type Method = 'suggestTopics' | 'researchArticle' | 'writeArticle' | 'reviseArticle';
export type WriterCall = { method: Method; subject: string };

export type RecordingWriter = ContentWriter & {
  calls: WriterCall[];
  failNext(method: Method, error: Error): void;
  count(method: Method): number;
};

export function recordingWriter(inner: ContentWriter = createOfflineWriter()): RecordingWriter {
  const calls: WriterCall[] = [];
  const failures = new Map<Method, Error[]>();
  const wrap =
    <I, O>(method: Method, subject: (input: I) => string, run: (input: I) => Promise<O>) =>
    async (input: I): Promise<O> => {
      calls.push({ method, subject: subject(input) });
      const failure = failures.get(method)?.shift();
      if (failure) throw failure;
      return run(input);
    };
  return {
    provider: inner.provider,
    calls,
    failNext(method, error) {
      failures.set(method, [...(failures.get(method) ?? []), error]);
    },
    count: (method) => calls.filter((call) => call.method === method).length,
    suggestTopics: wrap(
      'suggestTopics',
      (input) => input.brand.name,
      (input) => inner.suggestTopics(input),
    ),
    researchArticle: wrap(
      'researchArticle',
      (input) => input.topic.title,
      (input) => inner.researchArticle(input),
    ),
    writeArticle: wrap(
      'writeArticle',
      (input) => input.topic.title,
      (input) => inner.writeArticle(input),
    ),
    reviseArticle: wrap(
      'reviseArticle',
      (input) => input.instruction,
      (input) => inner.reviseArticle(input),
    ),
  };
}

/** Stops every background consumer but the projections, so only the test moves the pipeline. */
export async function stopBackgroundWork(app: TestInkstream): Promise<void> {
  await Promise.all(
    app.background.consumers
      .filter((consumer) => consumer.name !== 'projections')
      .map((consumer) => consumer.stop()),
  );
}

export async function streamEvents(platform: Platform, stream: string): Promise<StoredEvent[]> {
  try {
    return await platform.eventStore.readStream(stream);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
}

/** Hands the handler every event of the stream it handles, in order, once each, until the stream stops growing. */
export async function pump(
  platform: Platform,
  handler: PartitionedHandler,
  stream: string,
): Promise<void> {
  const delivered = new Set<string>();
  for (;;) {
    const pending = (await streamEvents(platform, stream)).filter(
      (event) => handler.types.includes(event.type) && !delivered.has(event.id),
    );
    if (pending.length === 0) return;
    for (const event of pending) {
      delivered.add(event.id);
      await handler.handle(event);
    }
  }
}

/** Delivers every handled event of the stream again, as a crash before the checkpoint would. */
export async function redeliver(
  platform: Platform,
  handler: PartitionedHandler,
  stream: string,
): Promise<void> {
  for (const event of await streamEvents(platform, stream))
    if (handler.types.includes(event.type)) await handler.handle(event);
}
