import type { ServerResponse } from 'node:http';
import type { Platform } from '../../platform.ts';
import { LIVE_CATEGORIES, toLiveChange } from './changes.ts';
import type { LiveHub, OpenStream } from './hub.ts';

/** Events read from the log at once; a stream further behind reads again once other work had its turn. */
export const LIVE_BATCH = 200;

export type LiveStreamOptions = {
  platform: Pick<Platform, 'tail' | 'logger'>;
  hub: LiveHub;
  accountId: string;
  /** Who opened it, for the per-credential and per-member caps (hub.ts). */
  holders?: OpenStream['holders'];
  /** The position after which changes are sent: the client's Last-Event-ID, or the log's head. */
  after: bigint;
  heartbeatMs: number;
  /** Bytes a stream may have waiting for its reader; past them the reader is too slow and is dropped. */
  maxBufferedBytes: number;
  /** Whether the caller's key or access token is still good (checked at each heartbeat). */
  stillAuthorized(): Promise<boolean>;
};

export type LiveStream = { record: OpenStream; run(res: ServerResponse): void };

/**
 * One open event stream: reads the account's changes from the process's log tail after `after`,
 * writes each with its position as the SSE id, then waits until the log grows. It ends when the
 * client goes, its credential stops being good, the server stops, or the client reads too slowly.
 */
export function createLiveStream(options: LiveStreamOptions): LiveStream {
  const { platform, hub, accountId } = options;
  let after = options.after;
  let res: ServerResponse | null = null;
  let ended = false;
  let woken = false;
  let fresh = false;
  let wakeUp: (() => void) | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  const record: OpenStream = {
    accountId,
    holders: options.holders,
    wake(fromElsewhere) {
      woken = true;
      if (fromElsewhere) fresh = true;
      wakeUp?.();
    },
    end: () => finish('shutdown'),
  };

  const cleanUp = () => {
    if (ended) return;
    ended = true;
    hub.leave(record);
    if (heartbeat) clearInterval(heartbeat);
    wakeUp?.();
  };

  /** Ends the stream saying why; the client reconnects (with a new token when the reason is `unauthorized`). */
  function finish(reason: 'unauthorized' | 'shutdown'): void {
    if (ended || !res) return cleanUp();
    res.end(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
    cleanUp();
  }

  /** True when the reader is keeping up; a reader that is not is disconnected, never buffered for without end. */
  function keepingUp(): boolean {
    if (!res || res.writableLength <= options.maxBufferedBytes) return true;
    platform.logger.info(
      { accountId, buffered: res.writableLength },
      'live stream dropped: its reader is too slow',
    );
    res.destroy();
    cleanUp();
    return false;
  }

  const nextWake = () =>
    new Promise<void>((resolve) => {
      if (woken || ended) return resolve();
      wakeUp = () => {
        wakeUp = null;
        resolve();
      };
    });

  async function pump(out: ServerResponse): Promise<void> {
    while (!ended) {
      const lookFresh = fresh;
      woken = false;
      fresh = false;
      const { events, through } = await platform.tail.read(
        after,
        LIVE_CATEGORIES,
        LIVE_BATCH,
        lookFresh,
      );
      let text = '';
      for (const event of events) {
        if (event.metadata.accountId !== accountId) continue; // never another account's change
        const owner = await hub.owners.of(event);
        if (owner)
          text += `id: ${event.position}\ndata: ${JSON.stringify(toLiveChange(event, owner))}\n\n`;
      }
      if (ended) return;
      if (text) out.write(text);
      const full = events.length === LIVE_BATCH;
      const reached = full ? events[events.length - 1].position : through;
      if (reached > after) after = reached;
      if (!keepingUp()) return;
      // A stream catching up gives the event loop back between batches, so other requests (and
      // other accounts) are served while it reads.
      if (full) await new Promise<void>((resolve) => setImmediate(resolve));
      else await nextWake();
    }
  }

  return {
    record,
    run(out) {
      res = out;
      out.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      out.setHeader('X-Accel-Buffering', 'no'); // nginx: pass each event on at once
      out.on('close', cleanUp);
      if (out.socket === null || out.socket.destroyed) return cleanUp(); // the client left while the request was handled
      // `ready` carries the starting position as its id, so a client that saw no change yet resumes from it.
      out.write(
        `: inkstream live changes\n\n${after >= 0n ? `id: ${after}\n` : ''}event: ready\ndata: {}\n\n`,
      );
      heartbeat = setInterval(() => {
        options.stillAuthorized().then(
          (authorized) => {
            if (!authorized) return finish('unauthorized');
            if (!ended) out.write(': heartbeat\n\n');
            keepingUp();
          },
          (error: unknown) =>
            platform.logger.warn({ err: error, accountId }, 'live stream: credential check failed'),
        );
      }, options.heartbeatMs);
      pump(out).catch((error: unknown) => {
        platform.logger.warn(
          { err: error, accountId },
          'live stream ended by an error; the client resumes with Last-Event-ID',
        );
        out.destroy();
        cleanUp();
      });
    },
  };
}
