import { createLimiter, type Limiter } from '../../../core/limiter.ts';
import { loadStream } from '../../../eventstore/handleCommand.ts';
import { createSafeHttpClient, type SafeHttpClient } from '../../../integrations/safeHttp/index.ts';
import type { Platform } from '../../../platform.ts';
import { nextRetryDelay, parseRetryDelays } from '../../webhooks/delivery/retrySchedule.ts';
import { HOOK_STATUS } from '../collections.ts';
import { integrationsStream } from '../../../domain/integrations/decide.ts';
import { callHook } from './hookCall.ts';
import { recordHookCall } from './hookCalls.ts';
import type { JobDoc, JobOutcome } from '../jobs/jobs.ts';

export const HOOK_SENDER = 'publishing.postPublishHook';

/** The last call of a project's post-publish hook, as GET …/post-publish-hook shows it. */
export type HookStatusDoc = {
  id: string;
  eventId: string;
  articleId: string;
  at: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  attempts: number;
  willRetryAt: string | null;
};

/** The SSRF-guarded client every hook call goes through: no redirects, the webhook timeout. */
export function hookHttpClient(
  platform: Pick<Platform, 'destinations' | 'config'>,
  originLimiter?: Limiter,
): SafeHttpClient {
  return createSafeHttpClient({
    destinations: platform.destinations,
    userAgent: 'Inkstream-Webhooks/0.1',
    timeoutMs: platform.config.INKSTREAM_WEBHOOK_TIMEOUT_MS,
    maxRedirects: 0,
    ...(originLimiter ? { originLimiter } : {}),
  });
}

export type HookSender = { handle(job: JobDoc): Promise<JobOutcome>; close(): Promise<void> };

/**
 * Calls the project's post-publish hook with the `article.published` event, signed and retried
 * exactly like a webhook delivery (same headers, same bytes on every attempt, same schedule),
 * through the SSRF-guarded client. The hook read at call time is used: a hook removed meanwhile
 * is not called, a changed URL gets the call.
 */
export function postPublishHookSender(platform: Platform): HookSender {
  const { config, clock, readStore } = platform;
  const delaysMs = parseRetryDelays(config.INKSTREAM_WEBHOOK_RETRY_DELAYS);
  let client: SafeHttpClient | null = null;
  const origins = createLimiter({ concurrency: config.INKSTREAM_WEBHOOK_CONCURRENCY_PER_ORIGIN });
  const log = platform.logger.child({ worker: HOOK_SENDER });

  return {
    async handle(job) {
      const hook = (await loadStream(platform.eventStore, integrationsStream, job.projectId)).state
        .postPublishHook;
      if (!hook || !job.hook) return { kind: 'done' };
      client ??= hookHttpClient(platform, origins);
      const nowMs = clock.nowMs();
      const outcome = await callHook({
        client,
        url: hook.url,
        secret: platform.secrets.open(hook.sealedSecret, {
          kind: 'post-publish-hook-secret',
          accountId: job.accountId,
          recordId: job.projectId,
        }),
        eventId: job.hook.eventId,
        body: job.hook.body,
        nowMs,
        timeoutMs: config.INKSTREAM_WEBHOOK_TIMEOUT_MS,
      });
      const attempts = job.attempts + 1;
      const scheduled =
        outcome.ok || outcome.gone ? null : nextRetryDelay(delaysMs, attempts, Math.random);
      const delay =
        scheduled === null
          ? null
          : Math.max(scheduled, Math.min(outcome.retryAfterMs ?? 0, Math.max(...delaysMs)));
      const status: HookStatusDoc = {
        id: job.projectId,
        eventId: job.hook.eventId,
        articleId: job.articleId,
        at: outcome.at,
        ok: outcome.ok,
        statusCode: outcome.statusCode,
        error: outcome.error,
        attempts,
        willRetryAt: delay === null ? null : new Date(nowMs + delay).toISOString(),
      };
      await readStore.save(HOOK_STATUS, status);
      // The call was made: failing to list it must not make the job call the receiver again.
      await recordHookCall(readStore, {
        projectId: job.projectId,
        kind: 'publication',
        eventId: job.hook.eventId,
        articleId: job.articleId,
        attempt: attempts,
        outcome,
      }).catch((err: unknown) =>
        log.warn({ err, projectId: job.projectId }, 'post-publish hook call not listed'),
      );
      if (outcome.ok) return { kind: 'done' };
      if (delay === null) {
        log.warn(
          { projectId: job.projectId, eventId: job.hook.eventId, error: outcome.error },
          'post-publish hook gave up',
        );
        return { kind: 'done' };
      }
      return {
        kind: 'retry',
        afterMs: delay,
        error: outcome.error ?? `answered ${outcome.statusCode}`,
      };
    },
    async close() {
      await client?.close();
      client = null;
    },
  };
}
