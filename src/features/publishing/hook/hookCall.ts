import type { SafeHttpClient } from '../../../integrations/safeHttp/index.ts';
import { retryAfterMs } from '../../webhooks/delivery/retrySchedule.ts';
import { signedHeaders } from '../../webhooks/delivery/signature.ts';

export type HookCallOutcome = {
  at: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** 410: the receiver says it is gone for good; not retried. */
  gone: boolean;
  retryAfterMs: number | null;
};

const RESPONSE_CAP = 2048;

/**
 * One POST of the event's stored bytes, signed with the webhook signatures (the same headers a
 * webhook delivery carries), through the SSRF-guarded client without redirects. Every failure is
 * an outcome, never a throw.
 */
export async function callHook(input: {
  client: SafeHttpClient;
  url: string;
  secret: string;
  eventId: string;
  body: string;
  nowMs: number;
  timeoutMs: number;
}): Promise<HookCallOutcome> {
  const { client, url, secret, eventId, body, nowMs, timeoutMs } = input;
  const at = new Date(nowMs).toISOString();
  const headers = {
    ...signedHeaders({ secret, id: eventId, timestampSeconds: Math.floor(nowMs / 1000), body }),
    'user-agent': 'Inkstream-Webhooks/0.1',
  };
  try {
    const response = await client.request(url, {
      method: 'POST',
      headers,
      body,
      timeoutMs,
      maxRedirects: 0,
      maxBytes: RESPONSE_CAP,
      onTooLarge: 'truncate',
    });
    const ok = response.status >= 200 && response.status < 300;
    return {
      at,
      ok,
      statusCode: response.status,
      gone: response.status === 410,
      error: ok
        ? null
        : `The hook answered ${response.status}${response.status >= 300 && response.status < 400 ? ' (redirects are not followed: set the final URL)' : ''}; only a 2xx status counts.`,
      retryAfterMs: ok ? null : retryAfterMs(response.headers['retry-after'], nowMs),
    };
  } catch (error) {
    return {
      at,
      ok: false,
      statusCode: null,
      gone: false,
      error: error instanceof Error ? error.message : String(error),
      retryAfterMs: null,
    };
  }
}
