import { createParser } from 'eventsource-parser';

/** One change of the account, as GET /api/v1/live sends it: ids and statuses, never free text. */
export type LiveChange = {
  id: string;
  kind: 'project' | 'crawl' | 'topic' | 'article';
  /** The domain event type, e.g. ArticleDrafted. */
  event: string;
  projectId: string;
  topicId?: string;
  articleId?: string;
  /** The new status or state, when the event sets one. */
  status?: string;
  at: string;
};

export type LiveConnectionOptions = {
  /** The stream's address, e.g. /api/v1/live. */
  url: string;
  /** A current bearer token (asked again before each connection, so an expired one is renewed). */
  token(): Promise<string>;
  /** The server refused the token or ended the stream for it: forget it so the next one is new. */
  onUnauthorized(): void;
  onChange(change: LiveChange): void;
  /**
   * The server no longer replays from the last id received (410 `resume_expired`): changes were
   * missed, so what the page shows must be read again; the stream goes on from now.
   */
  onExpired?(): void;
  /** The stream is open (again): changes from here on arrive. */
  onOpen?(): void;
  /** Waits before the n-th reconnect in a row (0-based); the default backs off from 0.5 s to 30 s with jitter. */
  backoffMs?(attempt: number): number;
};

export type LiveConnection = { stop(): void };

const endReason = (data: string): unknown => {
  try {
    return (JSON.parse(data) as { reason?: unknown }).reason;
  } catch {
    return undefined;
  }
};

const defaultBackoff = (attempt: number) =>
  Math.min(30_000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5);

/**
 * Keeps one stream open: reads it with fetch (EventSource cannot send a bearer header), and when it
 * ends or fails, connects again after a backoff with the last id received as Last-Event-ID, so no
 * change is missed and none is delivered twice.
 */
export function openLiveConnection(options: LiveConnectionOptions): LiveConnection {
  const backoff = options.backoffMs ?? defaultBackoff;
  let lastEventId: string | null = null;
  let stopped = false;
  let abort: AbortController | null = null;
  let wakeFromBackoff: (() => void) | null = null;

  async function readOnce(): Promise<'opened' | 'refused'> {
    abort = new AbortController();
    const token = await options.token();
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'text/event-stream',
    };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const response = await fetch(options.url, { headers, signal: abort.signal, cache: 'no-store' });
    if (!response.ok || !response.body) {
      if (response.status === 401) options.onUnauthorized();
      // An id this log does not know (a store restored from an older backup): start from now.
      if (response.status === 400) lastEventId = null;
      // Away longer than the server replays: start from now and have the page read its data again.
      if (response.status === 410) {
        lastEventId = null;
        options.onExpired?.();
      }
      await response.body?.cancel();
      return 'refused';
    }
    const parser = createParser({
      onEvent(message) {
        if (message.id) lastEventId = message.id;
        if (message.event === 'ready') options.onOpen?.();
        if (message.event === 'end' && endReason(message.data) === 'unauthorized')
          options.onUnauthorized();
        if (message.event !== undefined && message.event !== 'message') return;
        let change: LiveChange;
        try {
          change = JSON.parse(message.data) as LiveChange;
        } catch {
          return;
        }
        options.onChange(change);
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'opened';
      parser.feed(value);
    }
  }

  (async () => {
    let attempt = 0;
    while (!stopped) {
      try {
        attempt = (await readOnce()) === 'opened' ? 0 : attempt + 1;
      } catch {
        attempt += 1; // the network dropped, or stop() aborted the read
      }
      if (stopped) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff(attempt));
        wakeFromBackoff = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeFromBackoff = null;
    }
  })();

  return {
    stop() {
      stopped = true;
      abort?.abort();
      wakeFromBackoff?.();
    },
  };
}
