import { z } from 'zod';
import { AppError } from '../../core/errors.ts';
import { route } from '../../http/route.ts';
import type { Platform } from '../../platform.ts';
import { credentialCheck } from './credential.ts';
import { liveHub } from './hub.ts';
import { createLiveStream } from './liveStream.ts';
import { LiveChange } from './schemas.ts';

const POSITION = /^\d{1,20}$/;

/** Seconds a client refused for too many open streams is asked to wait. */
const RETRY_AFTER_S = 10;

/**
 * Where the stream starts: after the client's Last-Event-ID (or ?after=), which must be a position
 * this log has reached, or at the log's head for a new client.
 */
async function startPosition(
  resumeFrom: string | undefined,
  platform: Pick<Platform, 'eventStore'>,
): Promise<bigint> {
  const head = await platform.eventStore.headPosition();
  if (resumeFrom === undefined) return head;
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
  return after;
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
  errors: [429],
  async handle({ query, auth, platform, request, requestId }) {
    const after = await startPosition(request.get('last-event-id') ?? query.after, platform);
    const hub = liveHub(platform);
    const stream = createLiveStream({
      platform,
      hub,
      accountId: auth.accountId,
      after,
      heartbeatMs: platform.config.INKSTREAM_LIVE_HEARTBEAT_MS,
      maxBufferedBytes: platform.config.INKSTREAM_LIVE_BUFFER_BYTES,
      stillAuthorized: credentialCheck(request.get('authorization'), platform),
    });
    const cap = platform.config.INKSTREAM_LIVE_STREAMS_PER_ACCOUNT;
    if (!hub.admit(stream.record, cap)) {
      const message = `This account has ${cap} live streams open, the most it may: close one (a browser tab) before opening another.`;
      return {
        status: 429,
        headers: { 'Retry-After': String(RETRY_AFTER_S) },
        body: { error: { code: 'rate_limited', message, requestId } },
      };
    }
    return { status: 200, stream: (res) => stream.run(res) };
  },
});
