import type { CommandContext } from '../../../eventstore/handleCommand.ts';
import type { StoredEvent } from '../../../eventstore/port.ts';
import { dueKey } from '../../../readstore/dueKey.ts';

/**
 * Work the publisher does outside the consumer that found it: GitHub calls and hook calls can wait
 * minutes on a rate limit, so they are queued (inserted with the consumer's checkpoint) and run by
 * a worker that re-schedules instead of blocking the log. A job is removed only after its outcome
 * is recorded; a crash runs it again, and every step it takes is idempotent.
 */
/** `build`: the site's build changed, and the pull request's description is written again to show it. */
/** `correct`: a build rejected the file, a correction may be proposed; `applyCorrection`: commit it. */
export type JobKind = 'publish' | 'revision' | 'hook' | 'build' | 'correct' | 'applyCorrection';

export type JobDoc = {
  id: string;
  kind: JobKind;
  accountId: string;
  projectId: string;
  articleId: string;
  /** The event that asked for this work; the commands the job issues derive their ids from it. */
  cause: { eventId: string; correlationId: string; requestId: string };
  revisionId: string | null;
  /** Hook jobs: the public event's id and its exact bytes, fixed when the job was queued. */
  hook: { eventId: string; body: string } | null;
  attempts: number;
  /** `<ms, zero-padded>:<id>`: the queue's order. */
  due: string;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
};

export type JobOutcome = { kind: 'done' } | { kind: 'retry'; afterMs: number; error: string };

export function newJob(input: {
  id: string;
  kind: JobKind;
  event: StoredEvent;
  projectId: string;
  articleId: string;
  nowMs: number;
  revisionId?: string;
  hook?: { eventId: string; body: string };
}): JobDoc {
  const { id, kind, event, projectId, articleId, nowMs } = input;
  const at = new Date(nowMs).toISOString();
  return {
    id,
    kind,
    accountId: event.metadata.accountId,
    projectId,
    articleId,
    cause: {
      eventId: event.id,
      correlationId: event.metadata.correlationId,
      requestId: event.metadata.requestId,
    },
    revisionId: input.revisionId ?? null,
    hook: input.hook ?? null,
    attempts: 0,
    due: dueKey(nowMs, id),
    lastError: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The context of a command a job issues: stable across re-runs of the job, so a retried append is one append. */
export function jobContext(job: JobDoc, worker: string, step: string): CommandContext {
  return {
    accountId: job.accountId,
    actor: { kind: 'system', worker },
    correlationId: job.cause.correlationId,
    requestId: job.cause.requestId,
    causationId: job.cause.eventId,
    commandId: `${worker}:${job.id}:${step}`,
  };
}

/** Backoff for failures without a wait of their own: 5 s, 30 s, 2 min, 10 min, 30 min, then hourly. */
const BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000];
export const backoffMs = (attempts: number): number =>
  BACKOFF_MS[Math.min(Math.max(attempts - 1, 0), BACKOFF_MS.length - 1)];
