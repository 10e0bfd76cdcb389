/** One server-sent event as the stream wrote it. */
export type SseEvent = { id?: string; event: string; data: string };

export type SseConnection = {
  status: number;
  headers: Headers;
  /** The error body when the server refused the stream. */
  refusal?: any;
  /** Every event received so far, in order (comments left out). */
  events: SseEvent[];
  /** The `data` of each change received so far (events without an `event:` name), parsed. */
  changes(): any[];
  /** Settles when the server ends the stream or the connection drops. */
  ended: Promise<void>;
  close(): void;
};

/** A client of a text/event-stream endpoint over real HTTP, parsing events as they arrive. */
export async function openSse(
  url: string,
  headers: Record<string, string>,
  onEvent?: (event: SseEvent) => void,
): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  const connection: SseConnection = {
    status: response.status,
    headers: response.headers,
    events,
    changes: () =>
      events.filter((event) => event.event === 'message').map((event) => JSON.parse(event.data)),
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    connection.refusal = await response.json();
    return connection;
  }
  connection.ended = (async () => {
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        pending += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = pending.indexOf('\n\n')) !== -1) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const parsed = parseBlock(block);
          if (!parsed) continue;
          events.push(parsed);
          onEvent?.(parsed);
        }
      }
    } catch {
      /* aborted or dropped: the stream has ended */
    }
  })();
  return connection;
}

function parseBlock(block: string): SseEvent | null {
  const event: SseEvent = { event: 'message', data: '' };
  let sawField = false;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    sawField = true;
    if (field === 'id') event.id = value;
    else if (field === 'event') event.event = value;
    else if (field === 'data') event.data = event.data ? `${event.data}\n${value}` : value;
  }
  return sawField ? event : null;
}
