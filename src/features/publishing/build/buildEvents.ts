import { z } from 'zod';
import type { ArticleDoc } from '../../../../projections/articles.ts';
import { AppError } from '../../../core/errors.ts';
import type { Platform } from '../../../platform.ts';
import type { ReadStore } from '../../../readstore/port.ts';
import { BUILD_WATCH, ensurePublishingCollections, GITHUB_EVENT_KINDS } from '../collections.ts';
import type { BuildWatchDoc } from './buildWatchDoc.ts';
import { httpsUrl } from './readBuild.ts';

/**
 * The GitHub events that say a commit's build changed. A delivery (signed, for a connected
 * repository) is validated field by field, then only nudges the build watcher to read the commit
 * over REST at its next pass: nothing from the payload itself enters an event, so a payload GitHub
 * did not write (a leaked secret, a hostile CI) can at most cause one read of what GitHub says.
 */
export const BUILD_EVENTS = ['check_run', 'check_suite', 'status', 'deployment_status'] as const;
/** Every event the connection's webhook should send, as GitHub's settings name them. */
export const WEBHOOK_EVENTS = [
  'pull_request',
  'issue_comment',
  'pull_request_review_comment',
  ...BUILD_EVENTS,
] as const;

const Sha = z.string().regex(/^[0-9a-f]{40}$/);
const Name = z.string().max(1_000);
const Text = z.string().max(65_535).nullable().optional();
/** Null, absent or an https URL; `javascript:`, `data:`, `http:` and anything else are refused. */
const Url = z
  .string()
  .max(2_000)
  .refine((value) => value === '' || httpsUrl(value) !== null, 'must be an https URL')
  .nullable()
  .optional();
const RunStatus = z.enum(['queued', 'in_progress', 'completed', 'waiting', 'requested', 'pending']);
const Conclusion = z
  .enum([
    'success',
    'failure',
    'neutral',
    'cancelled',
    'skipped',
    'timed_out',
    'action_required',
    'stale',
    'startup_failure',
  ])
  .nullable()
  .optional();

const payloads = {
  check_run: z.object({
    action: z.string().max(50),
    check_run: z.object({
      head_sha: Sha,
      name: Name,
      status: RunStatus,
      conclusion: Conclusion,
      details_url: Url,
      html_url: Url,
      output: z.object({ title: Text, summary: Text }).partial().optional(),
    }),
  }),
  check_suite: z.object({
    action: z.string().max(50),
    check_suite: z.object({ head_sha: Sha, status: RunStatus.nullable(), conclusion: Conclusion }),
  }),
  status: z.object({
    sha: Sha,
    context: Name,
    state: z.enum(['pending', 'success', 'failure', 'error']),
    target_url: Url,
    description: Text,
  }),
  deployment_status: z.object({
    action: z.string().max(50),
    deployment_status: z.object({
      state: z.enum([
        'pending',
        'success',
        'failure',
        'error',
        'inactive',
        'queued',
        'in_progress',
      ]),
      environment_url: Url,
      target_url: Url,
    }),
    deployment: z.object({ sha: Sha }),
  }),
} satisfies Record<(typeof BUILD_EVENTS)[number], z.ZodType>;

export const isBuildEvent = (name: string): name is (typeof BUILD_EVENTS)[number] =>
  (BUILD_EVENTS as readonly string[]).includes(name);

/** The commit a build delivery is about; a 400 naming the first bad field when it is not what GitHub sends. */
export function buildEventSha(name: (typeof BUILD_EVENTS)[number], payload: unknown): string {
  const parsed = payloads[name].safeParse(payload);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: ['body', ...issue.path.map(String)].join('.'),
      message: issue.message,
    }));
    throw new AppError(
      'validation_failed',
      `The ${name} payload is not what GitHub sends: ${details[0]?.path} ${details[0]?.message}.`,
      { details },
    );
  }
  const data = parsed.data as Record<string, any>;
  if (name === 'check_run') return data.check_run.head_sha;
  if (name === 'check_suite') return data.check_suite.head_sha;
  if (name === 'status') return data.sha;
  return data.deployment.sha;
}

/** Marks that the project's webhook delivered `event` (shown on the connection; build events stop the timed reads). */
export async function noteWebhookEvent(
  readStore: ReadStore,
  projectId: string,
  event: string,
  nowMs: number,
): Promise<void> {
  if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) return;
  await ensurePublishingCollections(readStore);
  await readStore.save(GITHUB_EVENT_KINDS, {
    id: `${projectId}:${event}`,
    projectId,
    event,
    lastAtMs: nowMs,
  });
}

type EventKindDoc = { id: string; projectId: string; event: string; lastAtMs: number };

export async function webhookEventsOf(
  readStore: ReadStore,
  projectId: string,
): Promise<{ name: string; lastReceivedAt: string | null }[]> {
  await ensurePublishingCollections(readStore);
  const seen = (
    await readStore.find<EventKindDoc>(GITHUB_EVENT_KINDS, { filter: { projectId }, limit: 50 })
  ).items;
  return WEBHOOK_EVENTS.map((name) => {
    const found = seen.find((doc) => doc.event === name);
    return { name, lastReceivedAt: found ? new Date(found.lastAtMs).toISOString() : null };
  });
}

export async function buildWebhookSeenSince(
  readStore: ReadStore,
  projectId: string,
  sinceMs: number,
): Promise<boolean> {
  const seen = (
    await readStore.find<EventKindDoc>(GITHUB_EVENT_KINDS, { filter: { projectId }, limit: 50 })
  ).items;
  return seen.some((doc) => isBuildEvent(doc.event) && doc.lastAtMs >= sinceMs);
}

const MAX_OPEN = 200;

/** Asks the build watcher to read `sha` at its next pass, for the project's open pull requests at that head. */
export async function nudgeBuild(
  platform: Platform,
  projectId: string,
  sha: string,
): Promise<{ status: 'accepted' | 'ignored'; detail: string }> {
  await ensurePublishingCollections(platform.readStore);
  const open = await platform.readStore.find<ArticleDoc>('articles', {
    filter: { projectId, status: 'pr_open' },
    limit: MAX_OPEN,
  });
  const articles = open.items.filter((doc) => doc.headSha === sha);
  if (articles.length === 0)
    return {
      status: 'ignored',
      detail: `${sha.slice(0, 7)} is not the head of an open Inkstream pull request`,
    };
  const nowMs = platform.clock.nowMs();
  for (const doc of articles) {
    const watch = await platform.readStore.get<BuildWatchDoc>(BUILD_WATCH, doc.id);
    await platform.readStore.save(
      BUILD_WATCH,
      watch && watch.headSha === sha
        ? { ...watch, nudged: true }
        : { id: doc.id, headSha: sha, sinceMs: nowMs, lastReadMs: null, reads: 0, nudged: true },
    );
  }
  return {
    status: 'accepted',
    detail: `the site build of ${sha.slice(0, 7)} is read again for ${articles.map((doc) => doc.id).join(', ')}`,
  };
}
