import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { presentedKey } from '../../http/auth.ts';
import { route, type RouteResult } from '../../http/route.ts';
import type { Platform } from '../../platform.ts';
import { credentialCheck } from './credential.ts';
import { liveHub } from './hub.ts';
import { createLiveStream, LIVE_BATCH } from './liveStream.ts';
import { LiveChange } from './schemas.ts';

const POSITION = /^\d{1,20}$/;

/** Seconds a client refused for too many open streams is asked to wait. */
const RETRY_AFTER_S = 10;

const EVENT_STREAM = 'text/event-stream; charset=utf-8';

/** Where a stream starts, and how many events it replays before it follows the log. */
type Start = { after: bigint; replays: number };

/**
 * Where the stream starts: after the client's Last-Event-ID (or ?after=), which must be a position
 * this log has reached, or at the log's head for a new client. A resume the process's log tail
 * holds is read from memory; one older than the tail is read from the store only when it is at
 * most `maxResume` positions behind the head (events, on the embedded store), else it is 410
 * `resume_expired`: the client re-reads what it shows through the API and opens the stream
 * afresh. One account's reconnecting client can so never make the process read the whole log
 * (every tenant's events) again.
 */
async function startPosition(
  resumeFrom: string | undefined,
  platform: Pick<Platform, 'eventStore' | 'tail'>,
  maxResume: number,
): Promise<Start> {
  const head = await platform.eventStore.headPosition();
  if (resumeFrom === undefined) return { after: head, replays: 0 };
  const bad = (why: string) =>
    new AppError(
      'validation_failed',
      `Last-Event-ID ${why}: send back the id of the last change you received, or leave it out to start from now.`,
      {
        details: [{ path: 'header.last-event-id', message: why }],
      },
    );
  if (!POSITION.test(resumeFrom)) throw bad('must be a change id (a log position: digits only)');
  const after = BigInt(resumeFrom);
  if (after > head) throw bad('is ahead of the log: no change has that id');
  const held = platform.tail.heldAfter(after);
  if (held !== null) return { after, replays: held };
  if (head - after > BigInt(maxResume))
    throw new AppError(
      'resume_expired',
      `Last-Event-ID ${after} is further behind the log than this server replays (${maxResume} events): read what you show again through the API (GET /projects, GET /articles, …), then open the stream without Last-Event-ID to follow the changes from now.`,
    );
  return { after, replays: Number(head - after) };
}

export const liveRoute = route({
  method: 'get',
  path: '/live',
  tag: 'Live',
  summary:
    'Live changes of the account (server-sent events): projects, crawls, topics, articles; resumable with Last-Event-ID',
  readModels: 'when read',
  query: z.object({
    after: z
      .string()
      .optional()
      .describe('For clients that cannot set Last-Event-ID: the id of the last change received'),
  }),
  responses: { 200: { eventStream: LiveChange } },
  errors: [410, 429],
  async handle({ query, auth, platform, request, requestId, charge }): Promise<RouteResult> {
    // HEAD: the headers a GET would have, at once; no stream is opened and no slot taken.
    if (request.method.toUpperCase() === 'HEAD')
      return { status: 200, headers: { 'Content-Type': EVENT_STREAM } };
    const { config } = platform;
    const { after, replays } = await startPosition(
      request.get('last-event-id') ?? query.after,
      platform,
      config.INKSTREAM_LIVE_RESUME_EVENTS,
    );
    // A replay costs the caller one request more per full batch of the log it reads.
    await charge(Math.floor(replays / LIVE_BATCH));
    const authorization = request.get('authorization');
    const hub = liveHub(platform);
    const stream = createLiveStream({
      platform,
      hub,
      accountId: auth.accountId,
      holders: {
        credential: presentedKey(authorization).hash,
        member: auth.actor.kind === 'member' ? auth.actor.memberId : undefined,
      },
      after,
      heartbeatMs: config.INKSTREAM_LIVE_HEARTBEAT_MS,
      maxBufferedBytes: config.INKSTREAM_LIVE_BUFFER_BYTES,
      stillAuthorized: credentialCheck(authorization, platform),
    });
    const caps = {
      account: config.INKSTREAM_LIVE_STREAMS_PER_ACCOUNT,
      credential: config.INKSTREAM_LIVE_STREAMS_PER_CREDENTIAL,
      member: config.INKSTREAM_LIVE_STREAMS_PER_MEMBER,
    };
    const over = hub.admit(stream.record, caps);
    if (over) {
      const whose = {
        account: 'This account has',
        credential: 'This key (or access token) has',
        member: 'You have',
      }[over];
      const message = `${whose} ${caps[over]} live streams open, the most it may: close one (a browser tab) before opening another.`;
      return {
        status: 429,
        headers: { 'Retry-After': String(RETRY_AFTER_S) },
        body: { error: { code: 'rate_limited', message, requestId } },
      };
    }
    return { status: 200, stream: (res) => stream.run(res) };
  },
});
