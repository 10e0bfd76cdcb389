import type { Platform } from '../platform.ts';

/**
 * Read-your-writes for one request. `head` is the log's head read after the request arrived, so
 * every write acknowledged before the request was sent (by this process or any other) is at or
 * below it; a read of the read models that must show those writes first awaits readModelsCurrent().
 */
export type Consistency = {
  readonly head: bigint;
  /** Waits (bounded, once per request) until the read models reach `head`; false if the wait ran out. */
  readModelsCurrent(): Promise<boolean>;
};

/** For routes that read no read models on behalf of a caller (they authenticate otherwise). */
export const noConsistency: Consistency = { head: -1n, readModelsCurrent: async () => false };

const CURRENT = Promise.resolve(true);

export function createConsistency(
  platform: Pick<Platform, 'eventStore' | 'readModels' | 'config'>,
): () => Promise<Consistency> {
  /** The read models are known to have reached this position: a request at or below it need not wait. */
  let caughtUpThrough = -1n;
  let nextHead: Promise<bigint> | null = null;

  // One read of the head serves every request that asked during this turn of the event loop: it
  // is made in the check phase that follows, after each of them had arrived, so it is as good
  // for each as a read of its own (and a log read is a SQLite statement or a network round trip).
  const readHead = () =>
    (nextHead ??= new Promise<bigint>((resolve, reject) => {
      setImmediate(() => {
        nextHead = null;
        platform.eventStore.headPosition().then(resolve, reject);
      });
    }));

  return async () => {
    const head = await readHead();
    let waited: Promise<boolean> | null = null;
    return {
      head,
      readModelsCurrent() {
        if (head <= caughtUpThrough) return CURRENT;
        return (waited ??= platform.readModels
          .catchUp(platform.config.INKSTREAM_READ_WAIT_MS, head)
          .then((current) => {
            if (current && head > caughtUpThrough) caughtUpThrough = head;
            return current;
          }));
      },
    };
  };
}
