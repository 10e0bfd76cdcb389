import type { ReadStore } from '../../../readstore/port.ts';
import { ensurePublishingCollections, HOOK_CALLS } from '../collections.ts';
import type { HookCallOutcome } from './hookCall.ts';

/** How many calls of a project's hook are kept, newest first: enough to see a pattern, bounded per project. */
export const HOOK_CALLS_KEPT = 20;

/** One call of a post-publish hook: a publication's (each attempt) or a test call made from the integrations page. */
export type HookCallDoc = {
  id: string;
  projectId: string;
  kind: 'publication' | 'test';
  eventId: string;
  articleId: string | null;
  at: string;
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  attempt: number;
};

/** Records a call and drops the project's calls past the newest HOOK_CALLS_KEPT. */
export async function recordHookCall(
  readStore: ReadStore,
  call: {
    projectId: string;
    kind: HookCallDoc['kind'];
    eventId: string;
    articleId: string | null;
    attempt: number;
    outcome: HookCallOutcome;
  },
): Promise<HookCallDoc> {
  await ensurePublishingCollections(readStore);
  const { projectId, kind, eventId, articleId, attempt, outcome } = call;
  const doc: HookCallDoc = {
    id: `${projectId}:${eventId}:${attempt}`,
    projectId,
    kind,
    eventId,
    articleId,
    attempt,
    at: outcome.at,
    ok: outcome.ok,
    statusCode: outcome.statusCode,
    error: outcome.error,
  };
  await readStore.save(HOOK_CALLS, doc);
  const { items } = await readStore.find<HookCallDoc>(HOOK_CALLS, {
    filter: { projectId },
    sort: { field: 'at', direction: 'desc' },
    limit: HOOK_CALLS_KEPT * 2,
  });
  for (const old of items.slice(HOOK_CALLS_KEPT)) await readStore.remove(HOOK_CALLS, old.id);
  return doc;
}

/** The project's last calls, newest first. */
export async function lastHookCalls(
  readStore: ReadStore,
  projectId: string,
): Promise<HookCallDoc[]> {
  await ensurePublishingCollections(readStore);
  const { items } = await readStore.find<HookCallDoc>(HOOK_CALLS, {
    filter: { projectId },
    sort: { field: 'at', direction: 'desc' },
    limit: HOOK_CALLS_KEPT,
  });
  return items;
}
