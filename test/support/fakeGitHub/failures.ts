import type { Reply } from './route.ts';

/** Scripted failures of the fake GitHub, queued per operation (GitHub's operationId). */

export type ScriptedFailure = {
  status: number;
  /** How many calls in a row answer this. Default 1. */
  times?: number;
  headers?: Record<string, string>;
  /** Default: GitHub's basic error body. */
  body?: unknown;
  /** Perform the request first, then answer with the failure: a response lost on the way back. */
  afterApplying?: boolean;
};

export type RateLimit =
  | { kind: 'primary'; resetInSeconds: number }
  | { kind: 'secondary'; retryAfterSeconds: number };

const RATE_LIMIT_DOCS = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api';

export class FailureScript {
  private readonly queues = new Map<string, ScriptedFailure[]>();

  add(operationId: string, failure: ScriptedFailure): void {
    const queue = this.queues.get(operationId) ?? [];
    queue.push({ times: 1, ...failure });
    this.queues.set(operationId, queue);
  }

  /** GitHub's primary limit (`x-ratelimit-remaining: 0` until reset) or secondary limit (`retry-after`). */
  addRateLimit(operationId: string, limit: RateLimit, nowMs: number): void {
    if (limit.kind === 'primary') {
      this.add(operationId, {
        status: 403,
        headers: {
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.ceil(nowMs / 1000) + limit.resetInSeconds),
        },
        body: {
          message: 'API rate limit exceeded for user ID 1.',
          documentation_url: RATE_LIMIT_DOCS,
          status: '403',
        },
      });
    } else {
      this.add(operationId, {
        status: 403,
        headers: { 'retry-after': String(limit.retryAfterSeconds) },
        body: {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          documentation_url: `${RATE_LIMIT_DOCS}#about-secondary-rate-limits`,
          status: '403',
        },
      });
    }
  }

  clear(): void {
    this.queues.clear();
  }

  /** The failure due for this call, if any, counting it down. */
  take(operationId: string): ScriptedFailure | undefined {
    const queue = this.queues.get(operationId);
    const next = queue?.[0];
    if (!next) return undefined;
    next.times = (next.times ?? 1) - 1;
    if (next.times <= 0) queue.shift();
    return next;
  }
}

export function failureReply(failure: ScriptedFailure): Reply {
  const message = failure.status >= 500 ? 'Server Error' : `Scripted ${failure.status}`;
  const body = failure.body ?? {
    message,
    documentation_url: 'https://docs.github.com/rest',
    status: String(failure.status),
  };
  return { status: failure.status, headers: failure.headers, body };
}
