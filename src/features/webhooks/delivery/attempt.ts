import type { SafeHttpClient } from '../../../integrations/safeHttp/index.ts';
import type { AttemptOutcome } from './delivery.ts';
import { retryAfterMs } from './retrySchedule.ts';
import type { Signer } from './signature.ts';

/** How much of a receiver's answer is read and kept in the delivery log. */
export const RESPONSE_BODY_CAP = 2048;
export const WEBHOOK_USER_AGENT = 'Inkstream-Webhooks/0.1';

export type AttemptTarget = { url: string; sign: Signer };

function failureMessage(status: number, location: string | undefined): string {
  if (status >= 300 && status < 400) {
    return `The endpoint redirected (${status}${location ? ` to ${location}` : ''}); redirects are not followed: register the final URL.`;
  }
  if (status === 410)
    return 'The endpoint answered 410 Gone: it is disabled and receives nothing more until it is enabled again.';
  return `The endpoint answered ${status}; only a 2xx status counts as delivered.`;
}

/**
 * One signed POST of the delivery's stored bytes through the SSRF-guarded client (no redirects,
 * body read up to the cap). Every failure (status, timeout, refused, reset, TLS) is an outcome,
 * never a throw, except an abort the caller asked for.
 */
export async function attemptDelivery(input: {
  client: SafeHttpClient;
  target: AttemptTarget;
  eventId: string;
  body: string;
  nowMs: number;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<AttemptOutcome> {
  const { client, target, eventId, body, nowMs, timeoutMs, signal } = input;
  const at = new Date(nowMs).toISOString();
  const headers = {
    ...target.sign({ id: eventId, timestampSeconds: Math.floor(nowMs / 1000), body }),
    'user-agent': WEBHOOK_USER_AGENT,
  };
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const response = await client.request(target.url, {
      method: 'POST',
      headers,
      body,
      timeoutMs,
      signal,
      maxRedirects: 0,
      maxBytes: RESPONSE_BODY_CAP,
      onTooLarge: 'truncate',
    });
    const ok = response.status >= 200 && response.status < 300;
    return {
      attempt: {
        at,
        statusCode: response.status,
        latencyMs: latency(),
        responseBody: response.body.toString('utf8'),
        error: ok ? null : failureMessage(response.status, response.headers.location),
      },
      ok,
      gone: response.status === 410,
      retryAfterMs: ok ? null : retryAfterMs(response.headers['retry-after'], nowMs),
    };
  } catch (error) {
    if (signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return {
      attempt: { at, statusCode: null, latencyMs: latency(), responseBody: null, error: message },
      ok: false,
      gone: false,
      retryAfterMs: null,
    };
  }
}
