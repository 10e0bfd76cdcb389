import { deriveId } from '../../../core/ids.ts';
import { dueKey } from '../../../readstore/dueKey.ts';
import type { ReadModelWrite } from '../../../readstore/port.ts';
import { DELIVERIES } from '../collections.ts';
import { nextRetryDelay } from './retrySchedule.ts';

export type DeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'failed';

export type DeliveryAttempt = {
  at: string;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  /** The first 2 KB of what the receiver answered. */
  responseBody: string | null;
};

/**
 * One event for one endpoint. The bytes it sends are the event's feed row (`public_events`),
 * written once by the outbox in the same transaction and never changed, so every attempt to
 * every endpoint sends the same bytes; only a test event, which has no feed row, carries its
 * `body` here. `queue` (the endpoint id while the delivery waits, null once settled) and `due`
 * are the dispatcher's queue index.
 */
export type DeliveryDoc = {
  id: string;
  accountId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  body: string | null;
  seq: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Failed attempts in the current run through the retry schedule; a redelivery starts a new run. */
  runAttempts: number;
  nextAttemptAt: string | null;
  failureReason: string | null;
  queue: string | null;
  due: string | null;
  /** Bumped by every change and written as the row's guard: an older version never overwrites a newer one. */
  rev: number;
  createdAt: string;
  updatedAt: string;
};

export const MAX_ATTEMPTS_KEPT = 50;

const iso = (ms: number) => new Date(ms).toISOString();

/** Queue order: due time, then log order. */

export const deliveryIdFor = (eventId: string, endpointId: string, createdAt: string): string =>
  deriveId('dlv', Date.parse(createdAt), eventId, endpointId);

export function newDelivery(input: {
  id: string;
  accountId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  body: string | null;
  seq: string;
  nowMs: number;
}): DeliveryDoc {
  const { nowMs, ...rest } = input;
  const at = iso(nowMs);
  return {
    ...rest,
    status: 'pending',
    attempts: [],
    runAttempts: 0,
    nextAttemptAt: at,
    failureReason: null,
    queue: input.endpointId,
    due: dueKey(nowMs, input.seq),
    rev: 0,
    createdAt: at,
    updatedAt: at,
  };
}

export type AttemptOutcome = {
  attempt: DeliveryAttempt;
  ok: boolean;
  gone: boolean;
  retryAfterMs: number | null;
};

export type RetryPolicy = { delaysMs: readonly number[]; random: () => number };

/** The next version of a delivery. */
const changed = (doc: DeliveryDoc, changes: Partial<DeliveryDoc>, nowMs: number): DeliveryDoc => ({
  ...doc,
  ...changes,
  rev: doc.rev + 1,
  updatedAt: iso(nowMs),
});

const settled = (
  doc: DeliveryDoc,
  status: 'succeeded' | 'failed',
  failureReason: string | null,
  nowMs: number,
): DeliveryDoc =>
  changed(doc, { status, failureReason, nextAttemptAt: null, queue: null, due: null }, nowMs);

/** The delivery after an attempt: succeeded, scheduled again, or failed for good. */
export function afterAttempt(
  doc: DeliveryDoc,
  outcome: AttemptOutcome,
  policy: RetryPolicy,
  nowMs: number,
): DeliveryDoc {
  const attempts = [...doc.attempts, outcome.attempt].slice(-MAX_ATTEMPTS_KEPT);
  if (outcome.ok) return settled({ ...doc, attempts }, 'succeeded', null, nowMs);
  if (outcome.gone)
    return settled(
      { ...doc, attempts },
      'failed',
      'The endpoint answered 410 Gone and was disabled.',
      nowMs,
    );
  const runAttempts = doc.runAttempts + 1;
  const scheduled = nextRetryDelay(policy.delaysMs, runAttempts, policy.random);
  if (scheduled === null)
    return settled(
      { ...doc, attempts, runAttempts },
      'failed',
      `Gave up after ${runAttempts} attempts.`,
      nowMs,
    );
  // A receiver asking for more time (429/503 Retry-After) gets it, within the longest scheduled delay.
  const delay =
    outcome.retryAfterMs === null
      ? scheduled
      : Math.max(scheduled, Math.min(outcome.retryAfterMs, Math.max(...policy.delaysMs)));
  const at = nowMs + delay;
  return changed(
    doc,
    {
      attempts,
      runAttempts,
      status: 'retrying',
      nextAttemptAt: iso(at),
      due: dueKey(at, doc.seq),
      queue: doc.endpointId,
    },
    nowMs,
  );
}

/** An attempt a crash cut short: recorded, not counted, and made again at once. */
export function interrupted(doc: DeliveryDoc, since: string, nowMs: number): DeliveryDoc {
  const attempt: DeliveryAttempt = {
    at: since,
    statusCode: null,
    latencyMs: null,
    responseBody: null,
    error: 'Interrupted: Inkstream stopped before the receiver answered; sent again.',
  };
  return changed(
    doc,
    { attempts: [...doc.attempts, attempt].slice(-MAX_ATTEMPTS_KEPT), due: dueKey(nowMs, doc.seq) },
    nowMs,
  );
}

/** The endpoint was disabled or deleted: nothing more is sent. */
export const abandoned = (doc: DeliveryDoc, reason: string, nowMs: number): DeliveryDoc =>
  settled(doc, 'failed', reason, nowMs);

/** POST …/redeliver: due now, with a fresh run through the retry schedule. */
export function redelivered(doc: DeliveryDoc, nowMs: number): DeliveryDoc {
  const status = doc.status === 'succeeded' || doc.status === 'failed' ? 'pending' : doc.status;
  return changed(
    doc,
    {
      status,
      runAttempts: 0,
      failureReason: null,
      nextAttemptAt: iso(nowMs),
      queue: doc.endpointId,
      due: dueKey(nowMs, doc.seq),
    },
    nowMs,
  );
}

/** The write that stores this version of the delivery, unless a newer one is already stored. */
export const deliveryWrite = (doc: DeliveryDoc): ReadModelWrite => ({
  kind: 'put',
  collection: DELIVERIES,
  id: doc.id,
  doc,
  position: BigInt(doc.rev),
});
