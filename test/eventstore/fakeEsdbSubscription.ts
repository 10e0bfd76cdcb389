import { Readable } from 'node:stream';
import type { Filter, Position, ReadPosition } from '@eventstore/db-client';

export type FakeRecorded = {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  isJson: true;
  created: Date;
  data: unknown;
  metadata: unknown;
  position: Position;
};

/** What the fake server was asked, and what it sent back: what a test of the wire looks at. */
export type FakeEsdbWire = {
  subscriptions: { fromPosition: ReadPosition; filter: Filter | undefined }[];
  /** Every event a subscription sent to the client. */
  sent: FakeRecorded[];
};

export type SubscriptionServer = {
  /** Server 23.10+ sends "caught up" when a catch-up subscription goes live; older ones send a checkpoint there instead. */
  sendsCaughtUp: boolean;
  log: readonly FakeRecorded[];
  live: Set<(event: FakeRecorded) => void>;
  wire: FakeEsdbWire;
};

/** The server's default filter search window: a checkpoint per this many considered events (checkpointInterval 1). */
const SEARCH_WINDOW = 32;

/**
 * subscribeToAll as the server and client 6.2.1 answer it: the subscription starts after the
 * first event at or after fromPosition (from START, at the first event), sends the events its
 * filter lets through, a checkpoint every window of considered events, then "caught up" (or,
 * before 23.10, a checkpoint) and goes on with live events until unsubscribed. The client emits
 * "caughtUp" and runs checkpointReached as the messages arrive, while events may still wait in
 * its buffer: the fake pushes every historical event before telling either.
 */
export function fakeSubscribeToAll(
  server: SubscriptionServer,
  options: { fromPosition?: ReadPosition; filter?: Filter },
) {
  const { fromPosition = 'start', filter } = options;
  server.wire.subscriptions.push({ fromPosition, filter });
  const stream = new Readable({ objectMode: true, read() {} });
  let open = true;
  const send = (event: FakeRecorded) => {
    if (!open || (filter && !passes(filter, event))) return;
    server.wire.sent.push(event);
    stream.push({ event, commitPosition: event.position.commit });
  };
  const subscription = Object.assign(stream, {
    async unsubscribe() {
      if (!open) return;
      open = false;
      server.live.delete(send);
      setImmediate(() => stream.push(null));
    },
  });

  setImmediate(async () => {
    const first =
      fromPosition === 'start' ? 0 : nextIndexAfter(server.log, fromPosition as Position);
    let considered = 0;
    for (let index = first; index < server.log.length; index++) {
      // appends made meanwhile are read too
      const event = server.log[index];
      send(event);
      considered++;
      if (filter && considered % (SEARCH_WINDOW * filter.checkpointInterval) === 0)
        await filter.checkpointReached?.(subscription as never, event.position);
    }
    if (!open) return;
    server.live.add(send);
    const last = server.log[server.log.length - 1];
    if (server.sendsCaughtUp) subscription.emit('caughtUp');
    else if (last) await filter?.checkpointReached?.(subscription as never, last.position);
  });
  return subscription;
}

/** The server starts a subscription at the NextPos of a one-event read from fromPosition: past that event. */
function nextIndexAfter(log: readonly FakeRecorded[], from: Position): number {
  const at = log.findIndex((event) => compare(event.position, from) >= 0);
  return at === -1 ? log.length : at + 1;
}

function passes(filter: Filter, event: FakeRecorded): boolean {
  const subject = filter.filterOn === 'streamName' ? event.streamId : event.type;
  if ('prefixes' in filter) return filter.prefixes.some((prefix) => subject.startsWith(prefix));
  return new RegExp(filter.regex).test(subject);
}

export function compare(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  return a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
}
